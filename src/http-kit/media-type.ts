import type { Request } from 'express';

/** The media type of a request's body as its Content-Type declares it: lowercased, without parameters; '' when none is declared. */
export function mediaType(req: Request): string {
  return (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}
