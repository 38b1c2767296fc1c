// A generated building of any size, its relations stated in both directions as in real models:
// for suites that compare the same query on a small and a large site, or page through one.

const PREFIXES = `@prefix ex: <https://example.org/f#> .
@prefix brick: <https://brickschema.org/schema/Brick#> .
@prefix rec: <https://w3id.org/rec#> .
@prefix ref: <https://brickschema.org/schema/Brick/ref#> .
@prefix unit: <http://qudt.org/vocab/unit/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
`;

/**
 * A building of `floors` floors, each with two rooms, a zone over them, a VAV per room fed by the
 * one AHU, and points on the VAVs and zones. Relations are stated in both directions across
 * entities, as in real models.
 */
export function generateBuilding(floors: number): string {
  const out = [
    PREFIXES,
    'ex:B a rec:Building ; rdfs:label "Generated Building" ; ex:floors ' + floors + ' ;',
    '    brick:area [ brick:value 5000 ; brick:hasUnit unit:M2 ] .',
    'ex:AHU a brick:AHU ; rdfs:label "AHU" ; brick:hasLocation ex:B ; brick:hasPoint ex:AHU_SAT ; brick:isPartOf ex:AirSys .',
    'ex:AHU_SAT a brick:Supply_Air_Temperature_Sensor ; rdfs:label "AHU SAT" .',
    'ex:AHU_SF a brick:Supply_Fan ; rdfs:label "AHU Supply Fan" ; brick:isPartOf ex:AHU .',
    'ex:AirSys a brick:Air_System ; rdfs:label "Air System" ; brick:hasPoint ex:AirSys_Enable .',
    'ex:AirSys_Enable a brick:Enable_Command ; rdfs:label "Air System Enable" .',
  ];
  for (let f = 1; f <= floors; f++) {
    out.push(
      `ex:F${f} a rec:Level ; rdfs:label "Floor ${f}" ; brick:isPartOf ex:B ; brick:hasPart ex:Z${f} ; ex:level ${f} .`,
      `ex:Z${f} a brick:HVAC_Zone ; rdfs:label "Zone ${f}" ; brick:hasPoint ex:Z${f}_T .`,
      `ex:Z${f}_T a brick:Zone_Air_Temperature_Sensor ; rdfs:label "Zone ${f} Temp" .`,
    );
    for (const r of ['a', 'b']) {
      const room = `ex:R${f}${r}`;
      const vav = `ex:V${f}${r}`;
      out.push(
        `${room} a rec:Room ; rdfs:label "Room ${f}${r}" ; brick:isPartOf ex:F${f}, ex:Z${f} ; ex:seats 4 .`,
        `${vav} a brick:VAV ; rdfs:label "VAV ${f}${r}" ; brick:hasLocation ${room} ; brick:isFedBy ex:AHU ;`,
        `    brick:feeds ex:Z${f} ; brick:isPartOf ex:AirSys ; ex:controllerName "C-${f}" .`,
        `${vav}_T a brick:Zone_Air_Temperature_Sensor ; rdfs:label "VAV ${f}${r} Temp" ; brick:isPointOf ${vav} ;`,
        `    brick:hasUnit unit:DEG_C ;`,
        `    ref:hasExternalReference [ a ref:TimeseriesReference ; ref:hasTimeseriesId "ts-${f}${r}" ] .`,
        `${vav}_SP a brick:Target_Zone_Air_Temperature_Setpoint ; rdfs:label "VAV ${f}${r} Setpoint" ; brick:isPointOf ${vav} .`,
      );
    }
  }
  return out.join('\n');
}
