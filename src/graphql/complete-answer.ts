/**
 * A root field's answer as the GraphQL response holds it: the plan's entity objects
 * (src/compiler/) with exactly the selected fields, under their response keys, in selection order,
 * `__typename` included, and the value types (EntityProperty, PointValue) cut to their selections.
 * What graphql-js would do with the resolvers, without a resolver call per field: completed in
 * slices of the main thread, each list item on its own, so no list holds it at once.
 */
import type { Selection, UnionSelection, ValueFields } from '../compiler/plan.ts';
import type { EntityObject } from '../query/shape-entity.ts';
import { MainThreadSlices } from '../limits/main-thread.ts';

type Completed = Record<string, unknown>;

/** A list whose items are completed later, one by one: `into` receives them. */
interface ListJob {
  readonly items: readonly EntityObject[];
  readonly selection: Selection | UnionSelection;
  readonly into: unknown[];
}

/** The selection of an object: the selection, or the union member of the object's kind. */
const selectionOf = (selection: Selection | UnionSelection, object: EntityObject): Selection =>
  'union' in selection ? selection.union.get(object.__kind)! : selection;

/** A value type's object with the selected fields only, and so the objects its fields hold. */
function valueObject(value: Record<string, unknown>, fields: ValueFields, typeName: string): Completed {
  const out: Completed = {};
  for (const [key, field, nested] of fields) {
    const inner = value[field] ?? null;
    if (field === '__typename') out[key] = typeName;
    else if (nested && Array.isArray(inner))
      out[key] = inner.map((item: Record<string, unknown>) => valueObject(item, nested.fields, nested.typeName));
    else if (nested && inner !== null)
      out[key] = valueObject(inner as Record<string, unknown>, nested.fields, nested.typeName);
    else out[key] = inner;
  }
  return out;
}

/** A list of value objects (`properties`, `externalReferences`) with the selected fields only. */
const valueList = (values: unknown, fields: ValueFields, typeName: string): Completed[] =>
  (values as Array<Record<string, unknown>>).map((value) => valueObject(value, fields, typeName));

/**
 * Completes a root field's answer: a list, one entity or null (by the union's member when `selection`
 * is one), or a count. Stops between two slices once `signal` (the request's) is aborted.
 */
export async function completeAnswer(
  answer: EntityObject[] | EntityObject | null | number,
  selection: Selection | UnionSelection,
  signal?: AbortSignal,
): Promise<unknown> {
  if (answer === null || typeof answer === 'number') return answer;
  const jobs: ListJob[] = [];

  const complete = (object: EntityObject, selection: Selection): Completed => {
    const out: Completed = {};
    for (const field of selection.fields) {
      switch (field.type) {
        case 'typename':
          out[field.key] = selection.kind;
          break;
        case 'scalar':
          out[field.key] = object[field.key];
          break;
        case 'properties':
          out[field.key] = valueList(object[field.key], field.fields, 'EntityProperty');
          break;
        case 'externalReferences':
          out[field.key] = valueList(object[field.key], field.fields, 'ExternalReference');
          break;
        case 'currentValue': {
          const value = object[field.key] as Record<string, unknown> | null;
          out[field.key] = value === null ? null : valueObject(value, field.fields, 'PointValue');
          break;
        }
        case 'relation': {
          const value = object[field.key] as EntityObject[] | EntityObject | null;
          if (Array.isArray(value)) {
            const into: unknown[] = new Array(value.length);
            jobs.push({ items: value, selection: field.selection, into });
            out[field.key] = into;
          } else {
            out[field.key] = value === null ? null : complete(value, field.selection);
          }
        }
      }
    }
    return out;
  };

  let result: unknown;
  if (Array.isArray(answer)) {
    const into: unknown[] = new Array(answer.length);
    jobs.push({ items: answer, selection, into });
    result = into;
  } else {
    result = complete(answer, selectionOf(selection, answer));
  }
  const slices = new MainThreadSlices(signal);
  for (let job = jobs.pop(); job; job = jobs.pop()) {
    for (let i = 0; i < job.items.length; i++) {
      const item = selectionOf(job.selection, job.items[i]!);
      job.into[i] = complete(job.items[i]!, item);
      const pause = slices.step(1 + item.fields.length);
      if (pause) await pause;
    }
  }
  return result;
}
