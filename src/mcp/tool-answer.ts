/**
 * What a tool call answers: its result as JSON text, or, for an application error, the same status,
 * code and message the REST API would answer (a foreign site is 404 there and here), flagged as
 * the tool's error so an agent reads it and can act on it.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../errors/app-error.ts';

/** The most characters of JSON one answer holds: past it the tool says how to ask for less. */
export const MAX_ANSWER_CHARS = 200_000;

/**
 * The refusal of an answer over `MAX_ANSWER_CHARS`, saying how to ask for less: with its size when
 * it was written out, without when it was stopped while being built (its size is then unknown).
 */
export function answerTooLarge(characters?: number): AppError {
  const max = MAX_ANSWER_CHARS.toLocaleString('en');
  const holds =
    characters === undefined
      ? `The answer holds more than the ${max} characters`
      : `The answer holds ${characters.toLocaleString('en')} characters, over the ${max}`;
  return new AppError(
    'QUERY_TOO_LARGE',
    `${holds} a tool answers: ask for a page (limit and offset) or fewer fields.`,
    {
      ...(characters === undefined ? {} : { characters }),
      maxCharacters: MAX_ANSWER_CHARS,
    },
  );
}

export function answer(value: unknown): CallToolResult {
  const text = JSON.stringify(value);
  if (text.length > MAX_ANSWER_CHARS) return failure(answerTooLarge(text.length));
  return { content: [{ type: 'text', text }] };
}

export function failure(error: AppError): CallToolResult {
  const body = { error: { status: error.status, code: error.code, message: error.message, ...(error.details ?? {}) } };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

/** Runs a tool's work; an application error becomes the tool's error, anything else is the SDK's (an internal error). */
export async function answering(work: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    return answer(await work());
  } catch (error) {
    if (error instanceof AppError) return failure(error);
    throw error;
  }
}

/** How a paged list is told: how many there are in all, which were shown, and how to get the next page. */
export function page<T>(items: readonly T[], total: number, limit: number, offset: number) {
  const next = offset + items.length < total ? offset + items.length : null;
  return {
    total,
    offset,
    limit,
    returned: items.length,
    nextOffset: next,
    ...(next === null ? {} : { more: `${total - next} more: call again with offset ${next}.` }),
    items,
  };
}
