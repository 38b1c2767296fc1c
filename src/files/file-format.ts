import { plainTextProblem } from '../http-kit/plain-text.ts';
import { MODEL_FORMATS, type ModelFormat } from './site-file.ts';

/** Media types by extension, used when the upload did not say (or said only application/octet-stream). */
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  ifc: 'application/x-step',
  frag: 'application/octet-stream',
  glb: 'model/gltf-binary',
  gltf: 'model/gltf+json',
  obj: 'model/obj',
  mtl: 'model/mtl',
  pdf: 'application/pdf',
  csv: 'text/csv',
  txt: 'text/plain',
  md: 'text/markdown',
  json: 'application/json',
  ttl: 'text/turtle',
  xml: 'application/xml',
  zip: 'application/zip',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  svg: 'image/svg+xml',
  dwg: 'image/vnd.dwg',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

const GENERIC = 'application/octet-stream';
// type/subtype with optional parameters, and short enough for the record's 127 characters.
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(\s*;.*)?$/i;

/** The lower-case extension of a file name, or '' when it has none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The model format a file name's extension names, or null. */
export function formatFromName(name: string): ModelFormat | null {
  const extension = extensionOf(name);
  return (MODEL_FORMATS as readonly string[]).includes(extension) ? (extension as ModelFormat) : null;
}

/** The media type to record: the one the upload declared if it is specific and well-formed, else one from the extension. */
export function contentTypeOf(filename: string, declared: string | undefined): string {
  const given = declared?.trim() ?? '';
  if (
    given !== '' &&
    given.toLowerCase() !== GENERIC &&
    given.length <= 127 &&
    MEDIA_TYPE.test(given) &&
    plainTextProblem(given) === undefined
  )
    return given;
  return MEDIA_TYPES[extensionOf(filename)] ?? GENERIC;
}
