/**
 * What the alignment layer shows besides the colours in 3D: the legend (a count per status, and per
 * storey) and, for a clicked element, its status with the proposal's candidate entity, score and
 * evidence. The colours are defined here once; the scene paints with them and the legend shows them.
 */
import {
  ALIGNMENT_STATUSES,
  type AlignmentStatus,
  type Coverage,
  type CoverageElement,
  type Proposal,
  type StatusCounts,
} from './api.ts';
import { className, el } from './dom.ts';

/** The layer's colour for each status. */
export const STATUS_COLOURS: Readonly<Record<AlignmentStatus, string>> = {
  mapped: '#2e9d4f',
  proposed: '#f0a020',
  unmatched: '#d93025',
};

const STATUS_LABELS: Readonly<Record<AlignmentStatus, string>> = {
  mapped: 'Mapped',
  proposed: 'Proposed',
  unmatched: 'Unmatched',
};

const swatch = (colour: string, extra = '') => {
  const node = el('span', { class: `swatch ${extra}`.trim(), 'aria-hidden': 'true' });
  node.style.background = colour;
  return node;
};

/** Counts of the report's elements by status. */
function countByStatus(elements: readonly CoverageElement[]): StatusCounts {
  const counts: Record<AlignmentStatus, number> = { mapped: 0, proposed: 0, unmatched: 0 };
  for (const element of elements) counts[element.status] += 1;
  return counts;
}

/** The counts per storey in the model's order of storeys (those it does not name, and no storey, last). */
function storeyTable(byStorey: Coverage['byStorey'], storeyOrder: readonly string[]): HTMLElement {
  const rank = (storey: string) => {
    const index = storeyOrder.indexOf(storey);
    return index === -1 ? storeyOrder.length + (storey === '' ? 1 : 0) : index;
  };
  const header = el(
    'tr',
    {},
    el('th', {}, 'Storey'),
    ...ALIGNMENT_STATUSES.map((status) => el('th', { title: STATUS_LABELS[status] }, swatch(STATUS_COLOURS[status]))),
  );
  const rows = Object.entries(byStorey)
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([storey, counts]) =>
      el(
        'tr',
        { 'data-storey': storey },
        el('td', {}, storey || '(no storey)'),
        ...ALIGNMENT_STATUSES.map((status) =>
          el('td', { class: 'count', 'data-status': status }, String(counts[status])),
        ),
      ),
    );
  return el(
    'details',
    { 'data-testid': 'by-storey', open: '' },
    el('summary', {}, 'By storey'),
    el('table', { class: 'by-storey' }, el('thead', {}, header), el('tbody', {}, ...rows)),
  );
}

/**
 * The legend: each status's colour and count, what is dimmed, graph entities without an element, and
 * the counts per storey (in `storeyOrder`, the model's).
 */
export function renderLegend(legend: HTMLElement, coverage: Coverage, storeyOrder: readonly string[]): void {
  const counts = countByStatus(coverage.elements);
  const without = coverage.entitiesWithoutElement.length;
  const statuses = ALIGNMENT_STATUSES.map((status) =>
    el(
      'li',
      { 'data-status': status },
      swatch(STATUS_COLOURS[status]),
      ` ${STATUS_LABELS[status]} `,
      el('span', { class: 'count', 'data-testid': `count-${status}` }, String(counts[status])),
    ),
  );
  legend.replaceChildren(
    el('h2', {}, 'Alignment'),
    el(
      'ul',
      { class: 'statuses' },
      ...statuses,
      el('li', { class: 'muted' }, swatch('#9aa3b2', 'dimmed'), ' Others (walls, slabs, ducts…), dimmed'),
    ),
    el(
      'p',
      { class: 'muted', 'data-testid': 'entities-without-element' },
      `${without} graph ${without === 1 ? 'entity has' : 'entities have'} no element`,
    ),
  );
  if (Object.keys(coverage.byStorey).length > 0) legend.append(storeyTable(coverage.byStorey, storeyOrder));
  legend.hidden = false;
}

/** Shows in the legend's place why the layer could not be shown. */
export function renderLegendError(legend: HTMLElement, message: string): void {
  legend.replaceChildren(
    el('h2', {}, 'Alignment'),
    el('p', { class: 'error', role: 'alert', 'data-testid': 'alignment-error' }, message),
  );
  legend.hidden = false;
}

const percent = (score: number) => `${Math.round(score * 100)} %`;

function proposalItem(proposal: Proposal): HTMLElement {
  return el(
    'li',
    { 'data-proposal': proposal.id },
    el(
      'div',
      {},
      el('strong', { 'data-testid': 'candidate' }, proposal.entityId),
      ' ',
      el('span', { class: 'muted class-name' }, className(proposal.entityType)),
    ),
    el('div', { 'data-testid': 'score' }, `Score ${percent(proposal.score)}`),
    el(
      'ul',
      { class: 'evidence', 'data-testid': 'evidence' },
      ...proposal.evidence.map((evidence) =>
        el(
          'li',
          { 'data-kind': evidence.kind },
          el('span', { class: 'kind' }, evidence.kind),
          ` ${evidence.detail} `,
          el('span', { class: 'muted' }, `(${evidence.weight.toFixed(2)})`),
        ),
      ),
    ),
  );
}

/**
 * The panel's alignment section for an element: its status (or that the report leaves it out), and
 * for a proposed one its candidates, best first, each with its score and evidence.
 */
export function alignmentSection(element: CoverageElement | undefined, proposals: readonly Proposal[]): HTMLElement {
  if (!element)
    return el(
      'section',
      { class: 'alignment', 'data-testid': 'alignment' },
      el('h3', {}, 'Alignment'),
      el(
        'p',
        { class: 'muted', 'data-testid': 'alignment-status', 'data-status': 'none' },
        'Not in the report: elements of this class are not mapped to the graph.',
      ),
    );
  const status = el(
    'p',
    { class: 'status', 'data-testid': 'alignment-status', 'data-status': element.status },
    swatch(STATUS_COLOURS[element.status]),
    ` ${STATUS_LABELS[element.status]}`,
  );
  const body: HTMLElement[] = [];
  if (element.status === 'mapped')
    body.push(el('p', { class: 'muted' }, `Linked to ${element.entityId ?? 'an entity'} in the graph.`));
  if (element.status === 'unmatched')
    body.push(el('p', { class: 'muted' }, 'No graph entity is linked or proposed for it.'));
  if (element.status === 'proposed') {
    body.push(
      proposals.length > 0
        ? el('ul', { class: 'proposals' }, ...proposals.map(proposalItem))
        : el(
            'p',
            { class: 'muted' },
            `Proposed: ${element.entityId ?? 'an entity'}${element.score === null ? '' : `, score ${percent(element.score)}`} (its evidence is no longer open for review).`,
          ),
    );
  }
  return el('section', { class: 'alignment', 'data-testid': 'alignment' }, el('h3', {}, 'Alignment'), status, ...body);
}
