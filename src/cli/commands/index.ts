import type { Command } from '../command.ts';
import { alignAccept } from './align-accept.ts';
import { alignCoverage } from './align-coverage.ts';
import { alignProposals } from './align-proposals.ts';
import { alignReject } from './align-reject.ts';
import { diff } from './diff.ts';
import { exportGraph } from './export.ts';
import { history } from './history.ts';
import { patch } from './patch.ts';
import { rollback } from './rollback.ts';
import { keysCreate } from './keys-create.ts';
import { keysList } from './keys-list.ts';
import { keysRevoke } from './keys-revoke.ts';
import { load } from './load.ts';
import { mcp } from './mcp.ts';
import { sitesCreate } from './sites-create.ts';
import { sitesDelete } from './sites-delete.ts';
import { sitesList } from './sites-list.ts';
import { sitesUpdate } from './sites-update.ts';
import { tokensIssue } from './tokens-issue.ts';
import { validate } from './validate.ts';

/** Every command, in the order help lists them. */
export const COMMANDS: readonly Command[] = [
  sitesList,
  sitesCreate,
  sitesUpdate,
  sitesDelete,
  load,
  exportGraph,
  patch,
  history,
  diff,
  rollback,
  validate,
  alignProposals,
  alignAccept,
  alignReject,
  alignCoverage,
  keysCreate,
  keysList,
  keysRevoke,
  tokensIssue,
  mcp,
];
