import type { ExecutionResult } from 'graphql';
import { isAsyncIterable, processRegularResult, type Plugin } from 'graphql-yoga';
import { isSmall, jsonInSlices } from '../limits/json-in-slices.ts';

/** The media types of yoga's JSON answers, in the order yoga tries them (its `regular` result processor). */
const JSON_MEDIA_TYPES = ['application/graphql-response+json', 'application/json'];

/** Whether an Accept entry (`application/*`, `*\/*`) covers `mediaType`. */
function covers(asked: string, mediaType: string): boolean {
  const [askedType, askedSubtype] = asked.split('/');
  const [type, subtype] = mediaType.split('/');
  return (askedType === '*' || askedType === type) && (askedSubtype === '*' || askedSubtype === subtype);
}

/**
 * The media type yoga answers JSON with for this request: its own choice, made the same way (the
 * last JSON media type that an Accept entry covers, entries taken from the last; utf-8 only).
 */
export function acceptedJsonType(request: Request): string | undefined {
  let accepted: string | undefined;
  const entries = (request.headers.get('accept') || '*/*').replace(/\s/g, '').toLowerCase().split(',').reverse();
  for (const entry of entries) {
    const [asked, ...params] = entry.split(';');
    const charset = params.find((param) => param.includes('charset=')) ?? 'charset=utf-8';
    if (!asked || charset !== 'charset=utf-8') continue;
    for (const mediaType of JSON_MEDIA_TYPES) if (covers(asked, mediaType)) accepted = mediaType;
  }
  return accepted;
}

/**
 * A large answer without errors (its extensions, the versions it read, written too) is written as a stream, serialized in slices of the main thread
 * (`src/limits/json-in-slices.ts`), instead of yoga's one `JSON.stringify`; the text is the same.
 * Answers with errors, small answers and other media types (event streams) are yoga's.
 */
export function useStreamedJson(): Plugin {
  return {
    onResultProcess({ request, result, resultProcessor, setResultProcessor }) {
      if (resultProcessor !== processRegularResult || isAsyncIterable(result) || Array.isArray(result)) return;
      const answer = result as ExecutionResult;
      if (answer.errors?.length || isSmall(answer)) return;
      const mediaType = acceptedJsonType(request);
      if (!mediaType) return;
      setResultProcessor(
        (_result, fetchAPI) =>
          new fetchAPI.Response(jsonInSlices(answer), {
            status: 200,
            headers: { 'Content-Type': `${mediaType}; charset=utf-8` },
          }),
        mediaType,
      );
    },
  };
}
