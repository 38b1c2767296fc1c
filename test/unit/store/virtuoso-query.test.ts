// The Virtuoso rewrites (src/store/virtuoso-query.ts) by the shape they write; that Virtuoso then
// answers right is shown against a real one in test/integration/stores/virtuoso-dialect.test.ts.
import { describe, expect, it } from 'vitest';
import { serialize } from '../../../src/rdf/sparql-serializer.ts';
import { forVirtuoso as rewrite } from '../../../src/store/virtuoso-query.ts';
import { selectQuery } from '../../support/select-query.ts';

/** The rewrite of a query written as text, as the serializer prints it, on one line. */
const forVirtuoso = (text: string) => serialize(rewrite(selectQuery(text))).replace(/\s+/g, ' ');

const wrap = (where: string) => `SELECT * WHERE { GRAPH <urn:g> { ${where} } }`;

describe('forVirtuoso', () => {
  it('writes a repeated path as a transitive subquery bound to the ends it joins, its VALUES in a subquery', () => {
    const out = forVirtuoso(wrap('VALUES ?s { <urn:a> } ?s (<urn:p>|^<urn:q>)+/<urn:r> ?o'));
    expect(out).toMatch(/SELECT \?s WHERE \{\s*VALUES \?s/);
    // With a copy of the VALUES, in a SELECT DISTINCT of its two ends.
    expect(out).toMatch(/\{ SELECT DISTINCT \?s \?(virtuoso_step_\d+) WHERE \{ \{ SELECT \?s WHERE \{\s*VALUES \?s/);
    expect(out).toMatch(/OPTION \(TRANSITIVE, t_in\(\?s\), t_out\(\?(virtuoso_step_\d+)\), t_distinct, t_min\(1\)\) \. \} \}\s*\?\1 <urn:r> \?o\./);
    expect(out).toMatch(/\{ \?s <urn:p> \?virtuoso_step_\d+\. \}\s*UNION\s*\{ \?virtuoso_step_\d+ <urn:q> \?s\. \}/);
    expect(out).not.toMatch(/\)\+|>\+/);
  });

  it('bounds a zero-or-one step to one, and tests a constant end after the subquery', () => {
    const out = forVirtuoso(wrap('<urn:a> <urn:p>? ?o'));
    expect(out).toMatch(/t_min\(0\), t_max\(1\)\) \.\s*FILTER\(\?virtuoso_step_\d+ = <urn:a>\)/);
  });

  it('joins a group’s FILTER EXISTS as one SELECT DISTINCT of their shared variables', () => {
    const out = forVirtuoso(wrap('?e <urn:p>* ?x FILTER EXISTS { ?e a ?k } FILTER EXISTS { ?e <urn:q> ?v } OPTIONAL { ?e <urn:l> ?l }'));
    expect(out).not.toMatch(/EXISTS/);
    expect(out.match(/SELECT DISTINCT \?e WHERE/g)).toHaveLength(1);
  });

  it('writes an EXISTS of a BIND as an OPTIONAL join tested with BOUND', () => {
    const out = forVirtuoso(wrap('VALUES ?e { <urn:a> } BIND(IF(EXISTS { ?e <urn:p> ?y }, "hp", IF(NOT EXISTS { ?y <urn:p> ?e }, "x", "")) AS ?tag)'));
    expect(out).toMatch(/OPTIONAL \{\s*\{\s*SELECT DISTINCT \?e \(1 +AS \?virtuoso_exists_1\)/);
    expect(out).toMatch(/IF\(BOUND\(\?virtuoso_exists_1\), "hp", IF\(!\(BOUND\(\?virtuoso_exists_2\)\), "x", ""\)\)/);
  });

  it('leaves a query without repeated paths or EXISTS as it was', () => {
    const query = selectQuery(wrap('VALUES ?s { <urn:a> } ?s (<urn:p>|^<urn:q>) ?o OPTIONAL { ?o <urn:l> ?l }'));
    expect(rewrite(query)).toBe(query);
  });
});
