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
    expect(out).toMatch(
      /OPTION \(TRANSITIVE, t_in\(\?s\), t_out\(\?(virtuoso_step_\d+)\), t_direction 1, t_distinct, t_min\(1\)\) \. \} \}\s*\?\1 <urn:r> \?o\./,
    );
    expect(out).toMatch(/\{ \?s <urn:p> \?virtuoso_step_\d+\. \}\s*UNION\s*\{ \?virtuoso_step_\d+ <urn:q> \?s\. \}/);
    expect(out).not.toMatch(/\)\+|>\+/);
  });

  it('binds a transitive end only with a VALUES joined around it, not one in a UNION branch beside it', () => {
    // The branch's VALUES (a profile's untyped locations) binds ?s in that branch alone: copied
    // into the transitive subquery it cut the walk from every other ?s (Virtuoso answered nothing).
    const out = forVirtuoso(wrap('{ ?s a <urn:Floor> } UNION { VALUES ?s { <urn:wing> } } ?s <urn:hasPart>* ?o'));
    expect(out).toMatch(/OPTION \(TRANSITIVE, t_in\(\?s\)/);
    expect(out).not.toMatch(/SELECT DISTINCT \?s \?o WHERE \{ \{ SELECT \?s WHERE \{\s*VALUES \?s/);
    // Joined around it, the same VALUES still binds it.
    const joined = forVirtuoso(
      wrap('VALUES ?s { <urn:wing> } { ?s a <urn:Floor> } UNION { ?s a <urn:Wing> } ?s <urn:hasPart>* ?o'),
    );
    expect(joined).toMatch(/SELECT DISTINCT \?s \?o WHERE \{ \{ SELECT \?s WHERE \{\s*VALUES \?s/);
  });

  it('pins a transitive subquery to run from the end bound before it, and leaves it to the planner when both or neither are', () => {
    // Forward from the start a traversal binds first (BIND of a VALUES), then its edges: run
    // backwards from the edges Virtuoso kept one edge per piece of equipment.
    const forward = forVirtuoso(
      wrap(
        'VALUES ?parent { <urn:a> } BIND(?parent AS ?start) ?start <urn:feeds>* ?x . { ?x <urn:feeds> ?y } UNION { ?y <urn:fedBy> ?x }',
      ),
    );
    expect(forward).toMatch(/t_in\(\?start\), t_out\(\?x\), t_direction 1,/);
    // Back from the end a triple bound (a point's owners up the parts), also through a subquery that projects it.
    expect(forVirtuoso(wrap('?e a <urn:Point> . ?o <urn:hasPart>* ?e'))).toMatch(
      /t_in\(\?o\), t_out\(\?e\), t_direction 2,/,
    );
    expect(forVirtuoso(wrap('{ SELECT ?e WHERE { ?e a <urn:Point> } } ?o <urn:hasPart>* ?e'))).toMatch(
      /t_direction 2,/,
    );
    // An OPTIONAL binds nothing for what follows it; a UNION only what each branch binds.
    expect(forVirtuoso(wrap('OPTIONAL { ?e a <urn:Point> } ?o <urn:hasPart>* ?e'))).not.toMatch(/t_direction/);
    expect(forVirtuoso(wrap('{ ?e a <urn:P> } UNION { ?x a <urn:Q> } ?o <urn:hasPart>* ?e'))).not.toMatch(
      /t_direction/,
    );
    // A subquery is a scope of its own: a triple that binds an end outside it does not count inside.
    expect(forVirtuoso(wrap('?s a <urn:Floor> { SELECT ?s ?o WHERE { ?s <urn:p>* ?o } }'))).not.toMatch(/t_direction/);
    // Both ends bound (a membership test): the planner's choice.
    expect(forVirtuoso(wrap('?o a <urn:System> . ?e a <urn:Point> . ?o <urn:hasPart>* ?e'))).not.toMatch(/t_direction/);
  });

  it('bounds a zero-or-one step to one, and tests a constant end after the subquery', () => {
    const out = forVirtuoso(wrap('<urn:a> <urn:p>? ?o'));
    expect(out).toMatch(/t_min\(0\), t_max\(1\)\) \.\s*FILTER\(\?virtuoso_step_\d+ = <urn:a>\)/);
  });

  it('joins a group’s FILTER EXISTS as one SELECT DISTINCT of their shared variables', () => {
    const out = forVirtuoso(
      wrap('?e <urn:p>* ?x FILTER EXISTS { ?e a ?k } FILTER EXISTS { ?e <urn:q> ?v } OPTIONAL { ?e <urn:l> ?l }'),
    );
    expect(out).not.toMatch(/EXISTS/);
    expect(out.match(/SELECT DISTINCT \?e WHERE/g)).toHaveLength(1);
  });

  it('writes an EXISTS of a BIND as an OPTIONAL join tested with BOUND', () => {
    const out = forVirtuoso(
      wrap(
        'VALUES ?e { <urn:a> } BIND(IF(EXISTS { ?e <urn:p> ?y }, "hp", IF(NOT EXISTS { ?y <urn:p> ?e }, "x", "")) AS ?tag)',
      ),
    );
    expect(out).toMatch(/OPTIONAL \{\s*\{\s*SELECT DISTINCT \?e \(1 +AS \?virtuoso_exists_1\)/);
    expect(out).toMatch(/IF\(BOUND\(\?virtuoso_exists_1\), "hp", IF\(!\(BOUND\(\?virtuoso_exists_2\)\), "x", ""\)\)/);
  });

  it('writes an EXISTS probe’s paths as plain triples, alternatives a UNION', () => {
    const out = forVirtuoso(
      wrap('VALUES ?e { <urn:a> } BIND(IF(EXISTS { ?x (<urn:p>|^<urn:q>) ?e }, "le", "") AS ?tag)'),
    );
    expect(out).toMatch(
      /SELECT DISTINCT \?e \(1 +AS \?virtuoso_exists_1\) WHERE \{\s*\{ \?x <urn:p> \?e\. \}\s*UNION\s*\{ \?e <urn:q> \?x\. \}/,
    );
  });

  it('joins a long VALUES block, and one that is a UNION branch by itself, from a subquery of its own; a short one stays inline', () => {
    const out = forVirtuoso(wrap('{ VALUES ?k { <urn:A> <urn:B> } ?e a ?k } UNION { VALUES ?e { <urn:c> } }'));
    expect(out.match(/\{\s*SELECT \?(k|e) WHERE \{\s*VALUES \?\1 \{/g)).toEqual([expect.stringContaining('?e')]);
    expect(out).toMatch(/\{\s*VALUES \?k \{ <urn:A> <urn:B> \}\s*\?e rdf:type \?k/);
    const long = Array.from({ length: 33 }, (_, i) => `<urn:e${i}>`).join(' ');
    expect(forVirtuoso(wrap(`VALUES ?e { ${long} } ?e a ?k`))).toMatch(/\{\s*SELECT \?e WHERE \{\s*VALUES \?e \{/);
  });

  it('puts the query’s patterns before its first OPTIONAL in a subquery, with the FILTERs that test only what they surely bind', () => {
    const out = forVirtuoso(
      wrap(
        '{ ?e a <urn:A> } UNION { ?e <urn:p> ?x } FILTER(STRENDS(STR(?e), "1")) OPTIONAL { ?e <urn:l> ?l } FILTER(?l != "b") BIND(IF(EXISTS { ?e <urn:q> ?y }, "q", "") AS ?tag)',
      ),
    );
    // The subquery, then what stays in the group: the FILTER of ?l, which the OPTIONAL binds.
    expect(out).toMatch(
      /\{\s*SELECT \* WHERE \{[^{}]*\{[^{}]*\}\s*UNION\s*\{[^{}]*\}\s*FILTER\(STRENDS\(STR\(\?e\), "1"\)\)\s*\}\s*\}\s*OPTIONAL \{ \?e <urn:l> \?l\. \}\s*FILTER\(\?l != "b"\)/,
    );
  });

  it('leaves the query’s patterns in place when a FILTER that must stay after the OPTIONAL tests one of their variables', () => {
    // ?x is bound in one branch only: its FILTER cannot go first, and Virtuoso ignores it beside such a subquery.
    const out = forVirtuoso(
      wrap('VALUES ?k { <urn:A> } { ?e a ?k } UNION { ?e <urn:p> ?x } OPTIONAL { ?e <urn:l> ?l } FILTER(!BOUND(?x))'),
    );
    expect(out).not.toMatch(/\{\s*SELECT \* WHERE/);
  });

  it('writes an OPTIONAL’s paths as plain triples, alternatives a UNION, sequences a join; a required path stays whole', () => {
    const out = forVirtuoso(
      wrap('?s <urn:a> ?o OPTIONAL { ?o (<urn:u>|<urn:v>) ?u } OPTIONAL { ?o (<urn:r>/<urn:id>)|<urn:id> ?ts }'),
    );
    expect(out).toMatch(/OPTIONAL \{\s*\{ \?o <urn:u> \?u\. \}\s*UNION\s*\{ \?o <urn:v> \?u\. \}\s*\}/);
    expect(out).toMatch(
      /OPTIONAL \{\s*\{ \?o <urn:r> \?(virtuoso_step_\d+)\.\s*\?\1 <urn:id> \?ts\. \}\s*UNION\s*\{ \?o <urn:id> \?ts\. \}\s*\}/,
    );
    expect(out).not.toMatch(/\||\//);
    // Alternatives distributed over a sequence: one branch per way, never a UNION joined to a step.
    const distributed = forVirtuoso(wrap('?s <urn:a> ?o OPTIONAL { ?o (<urn:r>|<urn:q>)/<urn:id> ?ts }'));
    expect(distributed).toMatch(
      /OPTIONAL \{\s*\{ \?o <urn:r> \?(virtuoso_step_\d+)\.\s*\?\1 <urn:id> \?ts\. \}\s*UNION\s*\{ \?o <urn:q> \?\1\.\s*\?\1 <urn:id> \?ts\. \}\s*\}/,
    );
    const required = forVirtuoso(
      wrap('?s (<urn:p>|^<urn:q>) ?o OPTIONAL { ?o <urn:l> ?l OPTIONAL { ?l (<urn:a>|<urn:b>) ?z } }'),
    );
    expect(required).toMatch(/\?s \(<urn:p>\|\^<urn:q>\) \?o\./);
    expect(required).toMatch(/OPTIONAL \{\s*\{ \?l <urn:a> \?z\. \}\s*UNION\s*\{ \?l <urn:b> \?z\. \}\s*\}/);
  });

  it('leaves a query without VALUES, repeated paths, paths in an OPTIONAL or EXISTS as it was', () => {
    const query = selectQuery(wrap('?s (<urn:p>|^<urn:q>) ?o OPTIONAL { ?o <urn:l> ?l }'));
    expect(rewrite(query)).toBe(query);
  });
});
