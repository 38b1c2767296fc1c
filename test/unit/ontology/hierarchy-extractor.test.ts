import { Parser } from 'n3';
import { describe, expect, it } from 'vitest';
import { extractHierarchy } from '../../../src/ontology/hierarchy-extractor.ts';
import { Ontology } from '../../../src/ontology/ontology.ts';

const turtle = `
@prefix brick: <https://brickschema.org/schema/Brick#> .
@prefix rec: <https://w3id.org/rec#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix qk: <http://qudt.org/vocab/quantitykind/> .
@prefix ex: <http://example.org/> .

brick:Equipment a owl:Class .
brick:Fan a owl:Class ; rdfs:subClassOf brick:Equipment, [ a owl:Restriction ] .
brick:Fresh_Air_Fan a owl:Class ; rdfs:subClassOf brick:Fan ; brick:isReplacedBy brick:Outside_Fan .
brick:Outside_Fan a owl:Class ; rdfs:subClassOf brick:Fan .
brick:Old_Fan brick:isReplacedBy brick:Fan .
brick:Blower owl:equivalentClass brick:Fan .
rec:Room a rdfs:Class .
ex:Thing a owl:Class ; rdfs:subClassOf brick:Equipment .
brick:Temperature a brick:Quantity ; brick:isReplacedBy qk:Temperature .
brick:Water a brick:Substance .
brick:Hot_Water a brick:Substance .
brick:Supply_Hot_Water a brick:Substance ; brick:isReplacedBy brick:Hot_Water .
brick:Water skos:narrower brick:Hot_Water .
brick:hasPoint a owl:ObjectProperty ; owl:inverseOf brick:isPointOf .
brick:isPointOf a owl:ObjectProperty .
brick:hasOutputSubstance a owl:ObjectProperty .
brick:unrelated a owl:ObjectProperty .
`;
const quads = new Parser().parse(turtle);
const hierarchy = extractHierarchy(quads);
const B = 'https://brickschema.org/schema/Brick#';

describe('extractHierarchy', () => {
  it('takes brick: and rec: classes and the classes their links name, not other namespaces', () => {
    expect([...hierarchy.classes].sort()).toEqual(
      [
        `${B}Blower`,
        `${B}Equipment`,
        `${B}Fan`,
        `${B}Fresh_Air_Fan`,
        `${B}Old_Fan`,
        `${B}Outside_Fan`,
        'https://w3id.org/rec#Room',
      ].sort(),
    );
  });

  it('skips blank-node superclasses (OWL restrictions)', () => {
    expect(hierarchy.subClassOf.filter(([s]) => s === `${B}Fan`)).toEqual([[`${B}Fan`, `${B}Equipment`]]);
  });

  it('keeps replacements with a class at one end, not those of quantities or substances', () => {
    expect(hierarchy.isReplacedBy).toEqual([
      [`${B}Fresh_Air_Fan`, `${B}Outside_Fan`],
      [`${B}Old_Fan`, `${B}Fan`],
    ]);
  });

  it('turns skos:narrower into skos:broader between substances', () => {
    expect(hierarchy.substances).toEqual(new Set([`${B}Hot_Water`, `${B}Supply_Hot_Water`, `${B}Water`]));
    expect(hierarchy.broader).toEqual([[`${B}Hot_Water`, `${B}Water`]]);
  });

  it('keeps inverse properties and the substance properties, not other properties', () => {
    expect(hierarchy.inverseOf).toEqual([[`${B}hasPoint`, `${B}isPointOf`]]);
    expect([...hierarchy.objectProperties]).toEqual([`${B}hasOutputSubstance`, `${B}hasPoint`, `${B}isPointOf`]);
  });
});

describe('Ontology.fromQuads', () => {
  const ontology = Ontology.fromQuads(quads);

  it('matches an old class name to its replacement and an equivalent to its class', () => {
    expect(ontology.closure(`${B}Old_Fan`)).toContain(`${B}Outside_Fan`);
    expect(ontology.closure(`${B}Equipment`)).toContain(`${B}Blower`);
    expect(ontology.resolveClass('Blower')).toBe(`${B}Blower`);
  });

  it('gives the inverse of a property either way', () => {
    expect(ontology.inverseProperty(`${B}isPointOf`)).toBe(`${B}hasPoint`);
  });
});
