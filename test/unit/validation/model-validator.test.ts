// The model validator on small fixtures: Brick's shapes, unknown and deprecated classes,
// inverse links, points without equipment, equipment without location, the report's counts and
// its Turtle form; and `bkg validate FILE`, which prints the same report.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import N3 from 'n3';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/cli.ts';
import { defaultOntologyPath } from '../../../src/config/config.ts';
import { RdfSyntaxError } from '../../../src/store/graph-store.ts';
import { RDF_NESTING_LIMIT } from '../../../src/store/rdf-nesting.ts';
import { ModelValidator } from '../../../src/validation/model-validator.ts';
import { reportTurtle } from '../../../src/validation/report-turtle.ts';
import { buildReport, type Finding, type ValidationReport } from '../../../src/validation/validation-report.ts';

const fixture = (name: string) => fileURLToPath(new URL(`../../../fixtures/validation/${name}.ttl`, import.meta.url));
const EX = 'https://example.org/faulty#';
const BRICK = 'https://brickschema.org/schema/Brick#';

let validator: ModelValidator;
let faulty: ValidationReport;
const ofKind = (kind: string) => faulty.results.filter((f) => f.kind === kind);

beforeAll(async () => {
  validator = await ModelValidator.load(defaultOntologyPath);
  faulty = await validator.validate(
    [{ data: { path: fixture('faulty') }, format: 'text/turtle' }],
    'urn:bkg:site:test',
  );
});

describe('ModelValidator', () => {
  it('passes a model that meets Brick’s shapes and every check', async () => {
    const report = await validator.validate(
      [{ data: { path: fixture('valid') }, format: 'text/turtle' }],
      'urn:bkg:site:test',
    );
    expect(report).toMatchObject({
      conforms: true,
      summary: { violations: 0, warnings: 0, infos: 0 },
      counts: {},
      results: [],
      triples: 17,
    });
  });

  it('reports a violated Brick shape with the focus node, its label, the path, the value and a message', () => {
    expect(ofKind('shacl:class')).toContainEqual({
      kind: 'shacl:class',
      severity: 'Violation',
      focusNode: `${EX}ahu-1`,
      label: 'AHU 1',
      path: `${BRICK}hasLocation`,
      value: { type: 'uri', value: `${EX}pump-1` },
      message: `Pump 1 (${EX}pump-1) of brick:hasLocation is not a brick:Location.`,
      shape: 'https://brickschema.org/schema/BrickShape#hasLocationShape',
    });
  });

  it('names a blank node at fault by the entity that holds it and the path to it, an unlabelled entity by its local name', () => {
    const [reference] = ofKind('shacl:minCount');
    expect(reference).toMatchObject({
      focusNode: expect.stringMatching(/^_:/),
      label: 'vav-2 › ref:hasExternalReference (a ref:IFCReference)',
      heldBy: { entity: `${EX}vav-2`, path: ['https://brickschema.org/schema/Brick/ref#hasExternalReference'] },
      path: 'https://brickschema.org/schema/Brick/ref#hasIfcProjectReference',
      message: 'Fewer than 1 values of ref:hasIfcProjectReference.',
    });
    // Every finding names its focus node for people.
    for (const f of faulty.results) expect(f.label, f.focusNode).toMatch(/\S/);
  });

  it('names an unknown class with the closest known names, once for all its entities', () => {
    expect(ofKind('unknown-class')).toEqual([
      expect.objectContaining({
        severity: 'Violation',
        focusNode: `${EX}t-1`,
        label: 'T 1',
        value: { type: 'uri', value: `${BRICK}Temprature_Sensor` },
        suggestions: ['Temperature_Sensor', 'Air_Temperature_Sensor'],
        occurrences: 1,
      }),
    ]);
  });

  it('warns of a deprecated class and names its replacement', () => {
    expect(ofKind('deprecated-class')).toEqual([
      expect.objectContaining({
        severity: 'Warning',
        focusNode: `${EX}office`,
        suggestions: ['rec:Room'],
        message: 'Room is deprecated in Brick (1 entity); use rec:Room instead.',
      }),
    ]);
  });

  it('notes links stated in Brick’s inverse direction, per property', () => {
    expect(ofKind('inverse-relationship')).toEqual([
      expect.objectContaining({ severity: 'Info', path: `${BRICK}isPointOf`, occurrences: 2 }),
    ]);
  });

  it('warns of points without equipment and equipment without a location', () => {
    expect(ofKind('point-without-equipment').map((f) => [f.focusNode, f.message])).toEqual([
      [
        `${EX}t-2`,
        'The point is not a point of any equipment (brick:isPointOf / brick:hasPoint). It is a point of Office only.',
      ],
    ]);
    expect(ofKind('equipment-without-location').map((f) => f.focusNode)).toEqual([`${EX}pump-1`]);
  });

  it('counts per kind and severity, most serious first', () => {
    expect(faulty.conforms).toBe(false);
    expect(faulty.counts).toEqual({
      'deprecated-class': 1,
      'equipment-without-location': 1,
      'inverse-relationship': 1,
      'point-without-equipment': 1,
      'shacl:class': 3,
      'shacl:minCount': 1,
      'shacl:or': 1,
      'unknown-class': 1,
    });
    expect(faulty.summary).toEqual({ violations: 6, warnings: 3, infos: 1 });
    expect(faulty.results.map((f) => f.severity)).toEqual([
      ...Array(6).fill('Violation'),
      ...Array(3).fill('Warning'),
      'Info',
    ]);
  });

  it('writes the report as a SHACL sh:ValidationReport in Turtle', async () => {
    const store = new N3.Store(new N3.Parser().parse(await reportTurtle(faulty)));
    const SH = 'http://www.w3.org/ns/shacl#';
    const [report] = store.getSubjects(
      'http://www.w3.org/1999/02/22-rdf-syntax-ns#type',
      `${SH}ValidationReport`,
      null,
    );
    expect(store.getObjects(report!, `${SH}conforms`, null).map((t) => t.value)).toEqual(['false']);
    const results = store.getObjects(report!, `${SH}result`, null);
    expect(results).toHaveLength(10);
    const unknown = results.find(
      (r) => store.getObjects(r, `${SH}sourceConstraintComponent`, null)[0]!.value === 'urn:bkg:vocab#unknown-class',
    )!;
    expect(store.getObjects(unknown, `${SH}focusNode`, null)[0]!.value).toBe(`${EX}t-1`);
    expect(store.getObjects(unknown, `${SH}resultSeverity`, null)[0]!.value).toBe(`${SH}Violation`);
    const shapes = results.filter(
      (r) => store.getObjects(r, `${SH}sourceConstraintComponent`, null)[0]!.value === `${SH}ClassConstraintComponent`,
    );
    expect(shapes.map((r) => store.getObjects(r, `${SH}resultPath`, null)[0]!.value).sort()).toEqual([
      `${BRICK}hasLocation`,
      `${BRICK}hasPoint`,
      `${BRICK}hasPoint`,
    ]);
  });

  it('throws a syntax error with its line, as loading would', async () => {
    const error = await validator
      .validate([{ data: '<urn:a> <urn:b> .\n', format: 'application/n-triples' }], 'urn:x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RdfSyntaxError);
    expect((error as RdfSyntaxError).line).toBe(1);
  });
});

describe('buildReport', () => {
  it('lists at most the given number of findings per kind, and counts them all', () => {
    const finding = (i: number): Finding => ({
      kind: 'point-without-equipment',
      severity: 'Warning',
      focusNode: `urn:p${i}`,
      label: `p${i}`,
      path: null,
      value: null,
      message: '',
    });
    const report = buildReport(
      Array.from({ length: 7 }, (_, i) => finding(i)),
      10,
      0.1,
      5,
    );
    expect(report.results).toHaveLength(5);
    expect(report.omitted).toBe(2);
    expect(report.counts).toEqual({ 'point-without-equipment': 7 });
  });
});

describe('bkg validate FILE', () => {
  const run = async (args: string[]) => {
    let stdout = '';
    let stderr = '';
    const sink = (append: (text: string) => void) =>
      new Writable({ write: (chunk: Buffer, _e, done) => (append(chunk.toString()), done()) });
    const code = await runCli(args, {
      env: {},
      stdout: sink((t) => (stdout += t)) as never,
      stderr: sink((t) => (stderr += t)) as never,
    });
    return { code, stdout, stderr };
  };

  it('prints one line per finding and a summary line, and exits 1 on violations', async () => {
    const { code, stdout, stderr } = await run(['validate', fixture('faulty')]);
    expect(code).toBe(1);
    // The findings, the summary line, then what the service would make of the model (the load report).
    const [report, reading] = stdout.trimEnd().split(/\n(?=Looks like Brick )/) as [string, string];
    const lines = report.split('\n');
    expect(lines).toHaveLength(11);
    expect(lines).toContain(
      `VIOLATION unknown-class: ${EX}t-1 "T 1" [http://www.w3.org/1999/02/22-rdf-syntax-ns#type]: Temprature_Sensor is not a class of the ontology (1 entity). Closest known: Temperature_Sensor, Air_Temperature_Sensor.`,
    );
    expect(lines.at(-1)).toMatch(/^6 violations, 3 warnings, 1 info in 20 triples \([\d.]+ s\)$/);
    expect(reading).toMatch(/^Looks like Brick /);
    expect(reading).toContain(
      'Classes nobody declares (no class filter matches them):\n    brick:Temprature_Sensor (1): did you mean Temperature_Sensor, Air_Temperature_Sensor?',
    );
    expect(stderr).toMatch(/The model has 6 violations/);
  });

  it('exits 0 for a model without violations, and prints the service’s JSON report with --json', async () => {
    const { code, stdout } = await run(['validate', fixture('valid'), '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ conforms: true, summary: { violations: 0 }, triples: 17 });
  });

  it('refuses a model nested past the limit before Oxigraph parses it (1,000 objects deep would trap it)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bkg-validate-'));
    try {
      const file = join(dir, 'deep.jsonld');
      await writeFile(file, `{"@id": "urn:a", ${'"urn:p": {'.repeat(999)}"urn:p": "x"${'}'.repeat(1000)}`);
      const { code, stderr } = await run(['validate', file]);
      expect(code).not.toBe(0);
      expect(stderr).toContain(
        `does not parse: JSON-LD nesting deeper than ${RDF_NESTING_LIMIT} levels of { } or [ ] at line 1 column`,
      );
      // The validator's parser is still sound.
      expect((await run(['validate', fixture('valid')])).code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
