import { z } from 'zod';

/** A version number in a request (a query parameter, a path segment, a body field), named in its error. */
export const versionNumber = (name: string) =>
  z.coerce
    .number({ error: `${name} is a version number.` })
    .int({ error: `${name} is a version number.` })
    .min(0, { error: `${name} is 0 or more.` });
