import { z } from 'zod';
import { createFileFields, listFilesQuery, updateFileFields } from '../../files/file-fields.ts';
import { filePage, fileRecord } from '../response-schemas.ts';
import { download, json, errors, fileParams, TAGS, type PathRegistrar } from '../openapi-kit.ts';

/** The Files paths. */
export function filesPaths(path: PathRegistrar): void {
  const fileList = z.union([z.array(fileRecord), filePage]);
  path({
    method: 'get',
    path: '/api/files/',
    tags: [TAGS.files],
    summary: 'List site files',
    description: 'Without `limit` the plain array of all matches; with `limit` (cut to 1000) and `offset` one page.',
    request: { query: listFilesQuery },
    responses: { 200: json(fileList, 'The files.'), ...errors(400, 404) },
  });
  const multipart = (schema: z.ZodObject, required: boolean) => ({
    required: true,
    content: {
      'multipart/form-data': {
        schema: schema.extend({
          file: (required ? z.string() : z.string().optional()).meta({ format: 'binary', description: 'The bytes.' }),
        }),
      },
    },
  });
  path({
    method: 'post',
    path: '/api/files/',
    tags: [TAGS.files],
    summary: 'Upload a site file (write access)',
    request: { body: multipart(createFileFields, true) },
    responses: {
      201: json(fileRecord, 'The new file’s record; `Location` names it.'),
      ...errors(400, 403, 404, 413, 415, 503),
    },
  });
  path({
    method: 'get',
    path: '/api/files/{fileId}/',
    tags: [TAGS.files],
    summary: 'Read a site file’s record',
    request: { params: fileParams },
    responses: { 200: json(fileRecord, 'The record.'), ...errors(404) },
  });
  path({
    method: 'put',
    path: '/api/files/{fileId}/',
    tags: [TAGS.files],
    summary: 'Update a site file (write access); fields not sent keep their value',
    request: {
      params: fileParams,
      body: {
        ...multipart(updateFileFields, false),
        content: { ...multipart(updateFileFields, false).content, 'application/json': { schema: updateFileFields } },
      },
    },
    responses: { 200: json(fileRecord, 'The updated record.'), ...errors(400, 403, 404, 413, 415, 503) },
  });
  path({
    method: 'delete',
    path: '/api/files/{fileId}/',
    tags: [TAGS.files],
    summary: 'Delete a site file and its bytes (write access)',
    request: { params: fileParams },
    responses: { 204: { description: 'Deleted.' }, ...errors(403, 404, 503) },
  });
  path({
    method: 'get',
    path: '/api/files/{fileId}/download/',
    tags: [TAGS.files],
    summary: 'Download a site file',
    request: { params: fileParams, query: z.object({ redirect: z.enum(['0', '1']).optional() }) },
    responses: download,
  });
}
