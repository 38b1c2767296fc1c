import { describe, expect, it } from 'vitest';
import { confineQuery } from '../../../src/sparql-endpoint/confine-query.ts';

const GRAPHS = ['urn:bkg:site:a', 'urn:bkg:ontology'];
const confine = (text: string) => confineQuery(text, GRAPHS, 100);

describe('confineQuery result cap', () => {
  it('adds LIMIT cap + 1 to a query without one, and keeps a smaller LIMIT of the client', () => {
    expect(confine('SELECT * WHERE { ?s ?p ?o }').text).toMatch(/LIMIT 101\s*$/);
    expect(confine('SELECT * WHERE { ?s ?p ?o } LIMIT 5').text).toMatch(/LIMIT 5\s*$/);
    expect(confine('SELECT * WHERE { ?s ?p ?o } LIMIT 500').text).toMatch(/LIMIT 101\s*$/);
  });

  it('probes a capped CONSTRUCT or DESCRIBE for a solution past the cap, over the same dataset and pattern', () => {
    const construct = confine('CONSTRUCT { ?s <urn:p> ?o } WHERE { ?s ?p ?o } OFFSET 7');
    expect(construct.overflowProbe).toMatch(/^SELECT \(1\s+AS \?overflow\)/);
    expect(construct.overflowProbe).toContain('FROM <urn:bkg:site:a>');
    expect(construct.overflowProbe).toContain('?s ?p ?o');
    expect(construct.overflowProbe).not.toContain('urn:p');
    expect(construct.overflowProbe).toMatch(/OFFSET 107\s+LIMIT 1\s*$/);
    expect(confine('DESCRIBE ?s WHERE { ?s ?p ?o }').overflowProbe).toMatch(/OFFSET 100\s+LIMIT 1\s*$/);
  });

  it('does not probe a SELECT (its rows are counted), a DESCRIBE without a pattern, or a query within its own LIMIT', () => {
    expect(confine('SELECT * WHERE { ?s ?p ?o }').overflowProbe).toBeUndefined();
    expect(confine('DESCRIBE <urn:x>').overflowProbe).toBeUndefined();
    expect(confine('CONSTRUCT { ?s <urn:p> ?o } WHERE { ?s ?p ?o } LIMIT 50').overflowProbe).toBeUndefined();
  });
});
