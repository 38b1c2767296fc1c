import { z } from 'zod';
import { newSiteSchema, siteChangesSchema } from '../../sites/site-schema.ts';
import { siteRecord } from '../response-schemas.ts';
import { json, errors, unversioned, siteParams, TAGS, type PathRegistrar } from '../openapi-kit.ts';

/** The Sites paths. */
export function sitesPaths(path: PathRegistrar): void {
  for (const [base, note] of [
    ['/api/v1', ''],
    ['/api', unversioned],
  ] as const) {
    path({
      method: 'get',
      path: `${base}/sites/`,
      tags: [TAGS.sites],
      summary: `List the sites the caller may read (the demo site included)${note}`,
      responses: { 200: json(z.array(siteRecord), 'The sites, by id.'), ...errors() },
    });
  }
  path({
    method: 'post',
    path: '/api/v1/sites/',
    tags: [TAGS.sites],
    summary: 'Create a site (admin)',
    request: {
      body: { required: true, content: { 'application/json': { schema: newSiteSchema.meta({ id: 'NewSite' }) } } },
    },
    responses: { 201: json(siteRecord, 'The new site.'), ...errors(400, 403, 409, 415) },
  });
  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}',
    tags: [TAGS.sites],
    summary: 'Read a site',
    request: { params: siteParams },
    responses: { 200: json(siteRecord, 'The site.'), ...errors(404) },
  });
  path({
    method: 'patch',
    path: '/api/v1/sites/{siteId}',
    tags: [TAGS.sites],
    summary: 'Change a site’s name, time zone or other descriptive fields (admin; the demo site is read-only)',
    description:
      'Only the fields given change; `null` clears an optional one. The id cannot change. Readings keep their instants: answers write them in the new time zone at once.',
    request: {
      params: siteParams,
      body: {
        required: true,
        content: { 'application/json': { schema: siteChangesSchema.meta({ id: 'SiteChanges' }) } },
      },
    },
    responses: { 200: json(siteRecord, 'The changed site.'), ...errors(400, 403, 404, 415) },
  });
  path({
    method: 'delete',
    path: '/api/v1/sites/{siteId}',
    tags: [TAGS.sites],
    summary: 'Delete a site with its graph, files, readings and key grants (admin)',
    request: { params: siteParams },
    responses: { 204: { description: 'Deleted.' }, ...errors(403, 404, 503) },
  });
}
