/**
 * What the REST API answers, as zod schemas for the OpenAPI document. Each is checked against the
 * TypeScript type the handler returns (`satisfies`), and tests validate real answers against the
 * document, so neither can drift from the code unnoticed.
 */
import { z } from 'zod';
import type { ApiKeyRecord } from '../auth/key-store.ts';
import { CATEGORIES, IFC_STATUSES, MODEL_FORMATS, type SiteFileRecord } from '../files/site-file.ts';
import type { ModelFile } from '../models/model-file.ts';
import type { IngestReport } from '../readings/reading-ingest.ts';
import type { SiteRecord } from '../tenants/site-store.ts';
import type { GraphLoadStatus } from '../graphs/graph-loads.ts';
import type { ModelReading } from '../ontology/model-reading.ts';

const instant = (description: string) => z.string().meta({ description, example: '2026-11-21T22:05:00.000Z' });
const uuid = (description: string) => z.string().meta({ description, format: 'uuid' });

export const siteRecord = z
  .object({
    id: z.string().meta({ description: 'The site id: lowercase letters, digits and hyphens.', example: 'hq' }),
    name: z.string(),
    organization: z.string().nullable(),
    address: z.string().nullable(),
    city: z.string().nullable(),
    country: z.string().nullable(),
    country_code: z.string().nullable().meta({ description: 'ISO 3166-1 alpha-2, upper case.' }),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    timezone: z.string().meta({
      description: 'IANA time zone; instants of the site’s readings are given in it.',
      example: 'Europe/Berlin',
    }),
    created_at: instant('When the site was created (UTC).'),
    updated_at: instant('When the site last changed (UTC).'),
  })
  .meta({
    id: 'Site',
    description: 'A site: one building portfolio, with its own knowledge graph.',
  }) satisfies z.ZodType<SiteRecord>;

export const keyRecord = z
  .object({
    id: uuid('The key’s id (not its secret).'),
    name: z.string(),
    sites: z
      .union([z.literal('*'), z.array(z.string())])
      .meta({ description: 'The sites the key may read, or "*" for every site, present and future.' }),
    write: z.boolean().meta({ description: 'Whether the key may change the data of its sites.' }),
    admin: z.boolean().meta({ description: 'Whether the key may manage sites and keys.' }),
    created_at: instant('When the key was created.'),
    last_used_at: instant('When the key was last used.').nullable(),
    revoked_at: instant('When the key was revoked.').nullable(),
  })
  .meta({ id: 'ApiKey', description: 'An API key as listed: never its secret.' }) satisfies z.ZodType<ApiKeyRecord>;

export const createdKey = keyRecord
  .extend({
    key: z
      .string()
      .meta({ description: 'The secret (`bkg_…`), shown this once; the service keeps only its SHA-256 hash.' }),
  })
  .meta({ id: 'CreatedApiKey', description: 'A new API key, with its secret.' });

export const fileRecord = z
  .object({
    id: uuid('The file’s id.'),
    site: z.string().meta({ description: 'The site the file belongs to.' }),
    category: z.enum(CATEGORIES),
    name: z
      .string()
      .meta({ description: 'Display name (at most 255 characters); by default the uploaded file’s name.' }),
    entity_uri: z.string().meta({
      description: 'The graph entity the file documents (an absolute IRI, at most 511 characters); empty when none.',
    }),
    content_type: z.string().meta({ description: 'Media type of the bytes (at most 127 characters).' }),
    size_bytes: z.number().int(),
    format: z
      .enum(MODEL_FORMATS)
      .nullable()
      .meta({ description: 'Set for model files (ifc, frag, glb, obj); null for any other file.' }),
    storey: z.string().meta({ description: 'Storey name; empty when not applicable.' }),
    sort_order: z.number().int().meta({ description: 'Display order hint; 0 is first.' }),
    source_ifc: uuid('The IFC file a fragment file was made from.').nullable(),
    ifc: z
      .object({
        status: z.enum(IFC_STATUSES),
        error: z.string().nullable().meta({ description: 'Why reading or conversion failed.' }),
        schema: z
          .string()
          .nullable()
          .meta({ description: 'The schema the file declares (IFC2X3, IFC4, …), once read.' }),
        storeys: z.array(
          z.object({
            global_id: z.string(),
            name: z.string(),
            elevation: z.number().nullable().meta({ description: 'Metres.' }),
          }),
        ),
        element_count: z.number().int().nullable().meta({ description: 'Products with a GlobalId, once read.' }),
        fragments_id: uuid('The fragments (.frag) model file made from it, once converted.').nullable(),
      })
      .nullable()
      .meta({
        description:
          'For IFC files of category model-3d or bim-source: what the service read from the file; else null.',
      }),
    created_at: instant('Upload time.'),
    updated_at: instant('Last change.'),
  })
  .meta({ id: 'SiteFile', description: 'A site file.' }) satisfies z.ZodType<SiteFileRecord>;

export const filePage = z
  .object({
    count: z.number().int().meta({ description: 'Matches in all pages.' }),
    next: z.string().nullable().meta({ description: 'Absolute URL of the next page; null on the last.' }),
    previous: z.string().nullable().meta({ description: 'Absolute URL of the previous page; null on the first.' }),
    results: z.array(fileRecord),
  })
  .meta({ id: 'SiteFilePage', description: 'One page of the file list (with `limit`).' });

export const modelFile = z
  .object({
    id: uuid('Model file id.'),
    name: z.string().meta({ description: 'File display name.' }),
    format: z.enum(MODEL_FORMATS),
    storey: z.string().meta({ description: 'Storey name; an empty string when not applicable.' }),
    sort_order: z.number().int().meta({ description: 'Display order hint; 0 is first.' }),
    size_bytes: z.number().int(),
    download_url: z
      .string()
      .meta({ description: 'Path to download the file.', example: '/api/v1/sites/hq/models/6f1c…/download' }),
    created_at: instant('Upload time.'),
    source_ifc: uuid('The source IFC file, for fragment files; null otherwise.').nullable(),
  })
  .meta({ id: 'ModelFile', description: 'A model file of a site.' }) satisfies z.ZodType<ModelFile>;

const classLine = { class: z.string(), entities: z.number().int() };

export const modelReading = z
  .object({
    brickVersion: z.object({ looksLike: z.string().meta({ example: '1.0' }), evidence: z.array(z.string()) }),
    entities: z.object({
      typed: z.number().int(),
      untyped: z.number().int().meta({
        description: 'Entities without a class that their links place in a kind, counted up to 1,000 per kind.',
      }),
      untypedExamples: z.array(z.string()),
    }),
    renamedClasses: z
      .array(z.object({ ...classLine, readAs: z.string() }))
      .meta({ description: 'Classes of older Brick versions, read as the Brick 1.4 class they were renamed to.' }),
    deprecatedClasses: z
      .array(z.object({ ...classLine, readAs: z.string() }))
      .meta({ description: 'Classes Brick 1.4 deprecated, read as their final replacement.' }),
    siteClasses: z
      .array(z.object({ ...classLine, superclasses: z.array(z.string()) }))
      .meta({ description: 'Classes the site’s graph declares.' }),
    unknownClasses: z
      .array(z.object({ ...classLine, suggestions: z.array(z.string()) }))
      .meta({ description: 'Classes nobody declares: no class filter matches them.' }),
    ignoredRelations: z
      .array(z.object({ predicate: z.string(), triples: z.number().int(), note: z.string().optional() }))
      .meta({ description: 'Links between resources that no field reads.' }),
  })
  .meta({
    id: 'ModelReading',
    description: 'What the service made of a site’s model: nothing it states is dropped without a line here.',
  }) satisfies z.ZodType<ModelReading>;

export const loadResult = z
  .object({
    site: z.string(),
    version: z.number().int().meta({ description: 'The version of the graph the load made (also its ETag, "v<n>").' }),
    triples: z.number().int().meta({ description: 'Triples in the site’s graph after the load.' }),
    bytes: z.number().int().meta({ description: 'Bytes received.' }),
    seconds: z.number().meta({ description: 'From the first byte received to the graph stored.' }),
    reading: modelReading.optional().meta({ description: 'What the service made of the model, with `reading=1`.' }),
  })
  .meta({ id: 'GraphLoadResult', description: 'What a graph load did.' });

export const graphLoadStatus = z
  .object({
    site: z.string(),
    state: z.enum(['receiving', 'parsing', 'done', 'failed']),
    replace: z.boolean().meta({ description: 'A replace (PUT) or a merge (POST).' }),
    bytesTotal: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The body’s size, when the client sent Content-Length.' }),
    bytesReceived: z.number().int(),
    bytesParsed: z.number().int().meta({ description: 'Bytes of the document the store has parsed.' }),
    bytesPerSecond: z.number().int().nullable().meta({ description: 'Parsing rate so far.' }),
    triplesParsed: z.number().int().nullable().meta({
      description:
        'Triples in the bytes parsed so far, when the store can tell (the embedded store: N-Triples and N-Quads by their lines, Turtle bodies of 16 MiB or more as its journal rewrite counts them).',
    }),
    triplesPerSecond: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Triples parsed per second so far, when they are known.' }),
    triples: z.number().int().nullable().meta({ description: 'Triples in the graph once done.' }),
    startedAt: z.string().meta({ description: 'ISO 8601.' }),
    seconds: z.number().meta({ description: 'Since the first byte, or until the end.' }),
    message: z.string().nullable().meta({ description: 'Why it failed.' }),
  })
  .meta({
    id: 'GraphLoadStatus',
    description: 'How a load of a site’s graph goes.',
  }) satisfies z.ZodType<GraphLoadStatus>;

export const fieldErrors = z.record(z.string(), z.array(z.string())).meta({
  id: 'FieldErrors',
  description:
    'Field errors as Django REST framework writes them: field → messages; problems with the whole body under `non_field_errors`.',
  example: { name: ['This field may not be blank.'] },
});

export const ingestReport = z
  .object({
    received: z.number().int(),
    stored: z.number().int(),
    rejected: z.array(
      z.object({
        index: z.number().int().meta({ description: 'Position in the request (NDJSON: among non-empty lines).' }),
        errors: fieldErrors,
      }),
    ),
  })
  .meta({
    id: 'ReadingsReport',
    description: 'Readings received, stored, and the refused items with their reasons.',
  }) satisfies z.ZodType<IngestReport>;

export const timeseriesAnswer = z
  .object({
    query: z.object({
      start: z.string().meta({ description: 'Resolved start (inclusive), ISO-8601 in the site’s timezone.' }),
      end: z.string().meta({ description: 'Resolved end (exclusive).' }),
      window: z.string().nullable(),
      aggregate: z.string().nullable(),
      timezone: z.string().meta({
        description: 'The site’s IANA timezone, in which every instant of the answer is written.',
        example: 'Europe/Berlin',
      }),
    }),
    series: z.array(
      z.object({
        timeseriesId: z.string(),
        name: z.string().meta({ description: 'The point’s name in the graph.' }),
        type: z.string().meta({ description: 'The point’s class.' }),
        unit: z.string().nullable(),
        equipment: z
          .string()
          .nullable()
          .meta({ description: 'The equipment’s name; null for a point of a zone or location.' }),
        pointId: z.string(),
        equipmentId: z.string().nullable(),
        data: z.array(
          z.object({
            t: z.string().meta({ description: 'Instant (or window start) in the site’s timezone.' }),
            v: z.number().nullable(),
          }),
        ),
      }),
    ),
    errors: z
      .record(z.string(), z.string())
      .meta({ description: 'Ids no point of the site carries, with the reason.' }),
  })
  .meta({ id: 'TimeseriesAnswer', description: 'Historical readings per series.' });

export const errorBody = z
  .object({
    detail: z.string().meta({ description: 'What went wrong, for a person.' }),
    code: z.string().meta({
      description:
        'Machine-readable code: NOT_FOUND, FORBIDDEN, UNAUTHENTICATED, PAYLOAD_TOO_LARGE, RATE_LIMITED, SERVICE_UNAVAILABLE, …',
      example: 'NOT_FOUND',
    }),
  })
  .catchall(z.unknown())
  .meta({
    id: 'Error',
    description: 'An error that is not about fields; details (line, column, limit, …) beside `code`.',
  });

export const health = z.object({
  status: z.enum(['ok', 'broken']),
  engines: z.object({
    graph: z
      .enum(['ok', 'recovering', 'broken'])
      .describe('recovering: a triplestore thread that failed is being rebuilt while the others serve'),
  }),
});

export const readiness = z
  .object({
    status: z.enum(['ready', 'loading', 'unavailable']).meta({
      description: '`loading` while sites are being restored after a restart (every other site serves meanwhile).',
    }),
    engines: z
      .record(z.string(), z.enum(['ok', 'unavailable']))
      .meta({ description: 'graph, database, redis (when configured), files.' }),
    loading: z
      .object({
        sites: z.number().int().meta({ description: 'Sites still being restored after a restart.' }),
        slowest: z
          .object({
            triples: z.number().int().meta({ description: 'Triples restored so far.' }),
            totalTriples: z
              .number()
              .int()
              .optional()
              .meta({ description: 'Its triples, when the journal knows them.' }),
            retryAfterSeconds: z.number().int().meta({ description: 'When it should be back, at the rate so far.' }),
          })
          .meta({ description: 'The site that will take longest, unnamed.' }),
      })
      .optional()
      .meta({ description: 'Present while sites are being restored; names none of them.' }),
    failed: z
      .object({ sites: z.number().int().meta({ description: 'Sites whose graph could not be read back.' }) })
      .optional()
      .meta({
        description: 'Present when a restore failed (this does not keep the service unready); names none of them.',
      }),
    sites: z
      .array(
        z.union([
          z.object({
            site: z.string(),
            state: z.literal('loading'),
            triples: z.number().int().meta({ description: 'Triples restored so far.' }),
            totalTriples: z
              .number()
              .int()
              .optional()
              .meta({ description: 'The site’s triples, when the journal knows them.' }),
            bytes: z.number().int().meta({ description: 'Size of the site’s journal files.' }),
            serving: z.boolean().meta({
              description: 'Queries of the site are answered already; loads into it wait until it is fully restored.',
            }),
            retryAfterSeconds: z
              .number()
              .int()
              .meta({ description: 'When a request about the site may succeed, at the rate so far.' }),
          }),
          z.object({
            site: z.string(),
            state: z.literal('failed'),
            file: z.string().meta({ description: 'The journal file that could not be read (kept as it is).' }),
            message: z.string(),
          }),
        ]),
      )
      .optional()
      .meta({
        description:
          'With an admin key only: each site not serving since the start, being restored (with progress) or failed to be (these do not keep the service unready). Absent when every site serves.',
      }),
  })
  .meta({ id: 'Readiness' });

const element = {
  ifc_id: z.string().meta({ description: 'The element’s IFC GlobalId.' }),
  ifc_class: z.string().meta({ description: 'Its IFC class (IfcFlowTerminal, …).', example: 'IfcUnitaryEquipment' }),
  name: z.string(),
  storey: z.string().meta({ description: 'The storey’s name; empty outside any storey.' }),
};

export const elementPage = z
  .object({
    count: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(z.object(element)),
  })
  .meta({ id: 'IfcElementPage', description: 'One page of an IFC model’s elements.' });

export const modelStoreys = z
  .array(
    z.object({
      global_id: z.string().meta({ description: 'The storey’s IFC GlobalId.' }),
      name: z.string(),
      elevation: z
        .number()
        .nullable()
        .meta({ description: 'In metres, whatever the file’s unit; null when the file gives none.' }),
      element_count: z.number().int().meta({ description: 'How many elements stand on it.' }),
    }),
  )
  .meta({ id: 'IfcStoreys', description: 'The storeys of an IFC model, by elevation.' });

export const mappedElement = z
  .object({
    ...element,
    model: z.string().meta({ description: 'The IFC file the element was read from.', format: 'uuid' }),
    mapped: z.boolean().meta({ description: 'Whether a graph entity carries the GlobalId.' }),
    entity: z
      .object({
        kind: z.enum(['Building', 'Equipment', 'Location', 'Zone', 'System']),
        id: z.string(),
        uri: z.string(),
        name: z.string(),
        type: z.string(),
      })
      .nullable()
      .meta({ description: 'The graph entity, as GraphQL entityByIfcId resolves it; null when none.' }),
  })
  .meta({ id: 'IfcElement', description: 'An element of an IFC model and the graph entity it maps to.' });

const counts = z.object({ mapped: z.number().int(), proposed: z.number().int(), unmatched: z.number().int() });

export const alignmentProposal = z
  .object({
    id: z.string().meta({ description: 'Stable across calls for the same (element, entity) pair.' }),
    globalId: z.string().meta({ description: 'The element’s IFC GlobalId.' }),
    ifcClass: z.string().meta({ example: 'IfcAirTerminalBox' }),
    ifcName: z.string(),
    storey: z.string().meta({ description: 'The element’s storey in the IFC model; empty outside any.' }),
    fileId: z.string().meta({ description: 'The IFC file the element was read from.', format: 'uuid' }),
    entityId: z.string(),
    entityIri: z.string(),
    entityType: z.string().meta({ description: 'The entity’s Brick class, local name.', example: 'VAV' }),
    score: z.number().min(0).max(1),
    evidence: z.array(
      z.object({
        kind: z.enum(['class', 'name', 'tag', 'containment', 'connectivity']),
        detail: z.string(),
        weight: z.number().meta({ description: 'What it added to the score (negative: evidence against the pair).' }),
      }),
    ),
    status: z.enum(['proposed', 'accepted', 'rejected']),
  })
  .meta({
    id: 'AlignmentProposal',
    description:
      'A link an IFC element and a graph entity may have, with its score and evidence (docs/ifc-alignment.md).',
  });

export const alignmentProposalPage = z
  .object({ items: z.array(alignmentProposal), total: z.number().int(), nextOffset: z.number().int().nullable() })
  .meta({ id: 'AlignmentProposalPage', description: 'A page of proposals, best score first.' });

export const alignmentCoverage = z
  .object({
    elements: z.array(
      z.object({
        globalId: z.string(),
        ifcClass: z.string(),
        name: z.string(),
        storey: z.string(),
        status: z.enum(['mapped', 'proposed', 'unmatched']),
        entityId: z.string().nullable(),
        score: z.number().nullable(),
      }),
    ),
    byClass: z.record(z.string(), counts),
    byStorey: z.record(z.string(), counts),
    entitiesWithoutElement: z.array(
      z.object({ entityId: z.string(), entityType: z.string(), storey: z.string().nullable() }),
    ),
  })
  .meta({
    id: 'AlignmentCoverage',
    description:
      'Which IFC elements that should map are mapped, proposed or unmatched, and which entities no element maps to.',
  });

export const graphVersion = z
  .object({
    version: z.number().int(),
    parent: z.number().int().nullable().meta({ description: 'The version it changed; null for the first.' }),
    at: z.string().meta({ format: 'date-time' }),
    by: z
      .object({ kind: z.enum(['key', 'user', 'service']), id: z.string(), name: z.string().optional() })
      .meta({ description: 'Who made it: an API key (id and name) or a user (the token’s subject); never a secret.' }),
    via: z.enum(['put', 'post', 'patch', 'delete', 'alignment', 'rollback']),
    message: z.string().nullable(),
    triples: z.number().int().meta({ description: 'Triples in the graph after the change.' }),
    added: z.number().int(),
    removed: z.number().int(),
    entities: z.number().int().meta({ description: 'Subjects (IRIs) the change added or removed a triple of.' }),
    kept: z.boolean().meta({
      description:
        'Whether the change itself is kept: diffs, exports of older versions and rollbacks reach across it only then.',
    }),
  })
  .meta({ id: 'GraphVersion', description: 'A version of a site’s graph: one change, who made it, how, what it did.' });

export const graphVersions = z
  .object({
    latest: z.number().int().meta({ description: 'The graph’s version now (0 before the first change).' }),
    items: z.array(graphVersion),
    nextBefore: z.number().int().nullable().meta({ description: 'Pass as `before` for the next (older) page.' }),
  })
  .meta({ id: 'GraphVersions' });

export const changeResult = z
  .object({
    site: z.string(),
    version: z.number().int(),
    triples: z.number().int(),
    added: z.number().int().optional(),
    removed: z.number().int(),
    entities: z.number().int().optional(),
  })
  .meta({ id: 'GraphChangeResult', description: 'What a change did: the version it made and its counts.' });

const relation = z.object({ subject: z.string(), predicate: z.string(), object: z.string() });
export const graphDiff = z
  .object({
    from: z.number().int(),
    to: z.number().int(),
    added: z.number().int(),
    removed: z.number().int(),
    summary: z.object({
      entitiesAdded: z.array(z.string()),
      entitiesRemoved: z.array(z.string()),
      classChanges: z.array(z.object({ entity: z.string(), from: z.array(z.string()), to: z.array(z.string()) })),
      relationsAdded: z.array(relation),
      relationsRemoved: z.array(relation),
      labelsChanged: z.array(z.object({ entity: z.string(), from: z.string().nullable(), to: z.string().nullable() })),
    }),
    triples: z
      .object({ add: z.array(z.string()), remove: z.array(z.string()) })
      .optional()
      .meta({ description: 'The triples added and removed, as N-Triples terms (`triples=0` leaves them out).' }),
  })
  .meta({ id: 'GraphDiff', description: 'The change between two versions, and what a reviewer reads of it.' });
