/**
 * JSON text of a large value, written in slices of the main thread (`main-thread.ts`) as a stream
 * of chunks: `JSON.stringify` of 112k points held it for ~110 ms at once. What is small is still
 * stringified at once, natively; only the lists and objects around it are walked here. The text
 * is the one `JSON.stringify` writes, for the plain data a GraphQL answer is.
 */
import { MainThreadSlices } from './main-thread.ts';

/** A value with at most this many parts (list items, object fields) is stringified at once. */
const AT_ONCE = 256;

/** Text is handed on in chunks of about this many characters. */
const CHUNK_CHARS = 64 * 1024;

/** Whether `value` has at most `AT_ONCE` parts: walks no more than that many. */
export function isSmall(value: unknown): boolean {
  return partsLeft(value, AT_ONCE) >= 0;
}

function partsLeft(value: unknown, left: number): number {
  if (value === null || typeof value !== 'object') return left - 1;
  left--;
  if (Array.isArray(value)) {
    for (const item of value) if ((left = partsLeft(item, left)) < 0) return left;
    return left;
  }
  for (const key in value) if ((left = partsLeft((value as Record<string, unknown>)[key], left)) < 0) return left;
  return left;
}

/** The JSON text of `value` as UTF-8 chunks, written in slices of the main thread. */
export function jsonInSlices(value: unknown): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async start(controller) {
      let text = '';
      const slices = new MainThreadSlices();
      /** Adds a piece of text; a promise when the slice is over (await it then). */
      const push = (piece: string): Promise<void> | undefined => {
        text += piece;
        if (text.length >= CHUNK_CHARS) {
          controller.enqueue(encoder.encode(text));
          text = '';
        }
        return slices.step();
      };
      // JSON.stringify writes undefined (and functions) as null in a list, and leaves them out of an object.
      const atOnce = (value: unknown, inList: boolean) => JSON.stringify(value) ?? (inList ? 'null' : undefined);
      const write = async (value: unknown): Promise<void> => {
        if (Array.isArray(value)) {
          text += '[';
          for (let i = 0; i < value.length; i++) {
            const item: unknown = value[i];
            if (i > 0) text += ',';
            const pause = isSmall(item) ? push(atOnce(item, true)!) : write(item);
            if (pause) await pause;
          }
          text += ']';
          return;
        }
        text += '{';
        let first = true;
        for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
          if (field === undefined || typeof field === 'function') continue;
          text += `${first ? '' : ','}${JSON.stringify(key)}:`;
          first = false;
          const pause = isSmall(field) ? push(atOnce(field, false)!) : write(field);
          if (pause) await pause;
        }
        text += '}';
      };
      try {
        if (isSmall(value)) push(atOnce(value, false) ?? '');
        else await write(value);
        if (text.length > 0) controller.enqueue(encoder.encode(text));
        controller.close();
      } catch (error) {
        controller.error(error);
      }
    },
  });
}
