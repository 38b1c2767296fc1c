import { z } from 'zod';
import { listElementsQuery, listModelsQuery } from '../../files/file-fields.ts';
import { elementPage, mappedElement, modelFile, modelStoreys } from '../response-schemas.ts';
import { download, json, errors, siteParams, TAGS, type PathRegistrar } from '../openapi-kit.ts';

/** The Models paths. */
export function modelsPaths(path: PathRegistrar): void {
  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}/models',
    tags: [TAGS.models],
    summary: 'List the site’s model files',
    description: 'Also served with a trailing slash. Ordered by `sort_order`, then upload time.',
    request: { params: siteParams, query: listModelsQuery },
    responses: { 200: json(z.array(modelFile), 'The model files.'), ...errors(400, 404) },
  });
  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}/models/{modelId}/download',
    tags: [TAGS.models],
    summary: 'Download a model file',
    description:
      'The bytes with `Content-Disposition: attachment`, a strong `ETag`, `Range` (206) and `If-None-Match` (304); with S3 and `?redirect=1` (or BKG_DOWNLOAD_REDIRECT) a 302 to a presigned URL.',
    request: {
      params: siteParams.extend({ modelId: z.string().meta({ format: 'uuid' }) }),
      query: z.object({ redirect: z.enum(['0', '1']).optional() }),
    },
    responses: download,
  });

  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}/models/{modelId}/elements',
    tags: [TAGS.models],
    summary:
      'The elements of an IFC model (or of the IFC a fragments file was made from), or one element and its graph entity',
    description:
      'With `ifcId`: that element, `mapped`, and the graph entity carrying its GlobalId. Without: a page of elements (`limit`, default 1000, and `offset`), optionally of one storey. 409 while the IFC file is still being read.',
    request: { params: siteParams.extend({ modelId: z.string().meta({ format: 'uuid' }) }), query: listElementsQuery },
    responses: {
      200: json(z.union([elementPage, mappedElement]), 'A page of elements, or the one asked for.'),
      ...errors(400, 404, 409, 503),
    },
  });

  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}/models/{modelId}/storeys',
    tags: [TAGS.models],
    summary: 'The storeys of an IFC model (or of the IFC a fragments file was made from)',
    description:
      'By elevation (metres), each with how many elements stand on it. 409 while the IFC file is still being read.',
    request: { params: siteParams.extend({ modelId: z.string().meta({ format: 'uuid' }) }) },
    responses: { 200: json(modelStoreys, 'The storeys.'), ...errors(404, 409, 503) },
  });
}
