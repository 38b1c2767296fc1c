import { json, type RequestHandler } from 'express';
import { unsupportedMediaType } from '../errors/app-error.ts';
import { mediaType } from './media-type.ts';

/**
 * Parses a JSON request body of at most `limit` (`'64kb'`). A body of any other type (a form, text,
 * none declared) is 415 saying JSON is expected: left unparsed, it would reach the route's schema
 * as `undefined` and come back as a validator's "expected object, received undefined".
 * A request without a body (GET, DELETE) passes untouched.
 */
export function jsonBody(limit: string): RequestHandler {
  const parse = json({ limit });
  return (req, res, next) => {
    // `false`: there is a body and its type is not JSON (`null` when there is no body at all).
    if (req.is('application/json') === false) {
      const given = mediaType(req).slice(0, 100);
      next(
        unsupportedMediaType(
          `Send the body as JSON (Content-Type: application/json)${given ? `, not ${given}` : ''}.`,
          ['application/json'],
        ),
      );
      return;
    }
    parse(req, res, next);
  };
}
