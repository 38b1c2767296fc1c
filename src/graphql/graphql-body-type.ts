/**
 * A POST to `/graphql` whose body is of a type GraphQL over HTTP does not read (text/plain, XML, …)
 * is refused with a 415 that says what to send: yoga answers such a request with an empty 415.
 */
import type { RequestHandler } from 'express';
import { unsupportedMediaType } from '../errors/app-error.ts';
import { mediaType } from '../http-kit/media-type.ts';

/** The request body types yoga reads (GraphQL over HTTP, and yoga's form and multipart parsers). */
const GRAPHQL_BODY_TYPES = [
  'application/json',
  'application/graphql+json',
  'application/graphql',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
];

export function graphqlBodyType(): RequestHandler {
  return (req, _res, next) => {
    const type = mediaType(req);
    if (req.method !== 'POST' || type === '' || GRAPHQL_BODY_TYPES.includes(type)) return next();
    throw unsupportedMediaType(
      `A GraphQL request is sent as JSON (Content-Type: application/json), not ${type}: {"query": "…", "variables": {…}}.`,
      GRAPHQL_BODY_TYPES,
    );
  };
}
