import fc from 'fast-check';
import { z } from 'zod';

/** The JSON Schema subset zod's `toJSONSchema` writes for our contract (and better-auth's bodies). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  additionalProperties?: boolean | JsonSchema;
}

/** A zod schema (ours or better-auth's) as JSON Schema, or undefined where zod cannot write one. */
export function jsonSchemaOf(schema: unknown): JsonSchema | undefined {
  // better-auth may bring its own copy of zod 4: any zod 4 schema (it carries `_zod`) is read.
  if (typeof schema !== 'object' || schema === null || !('_zod' in schema)) return undefined;
  try {
    return z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return undefined;
  }
}

/** Strings that have broken servers: control characters, huge, right-to-left, emoji, SQL and path tricks, NUL. */
export const hostileString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\u202e\u0041\u0042',
    '👩‍👩‍👧‍👦'.repeat(50),
    "' or 1=1 --",
    '"; drop table users; --',
    '../../../../etc/passwd',
    '%00%2e%2e%2f',
    '<script>alert(1)</script>',
    '{{7*7}}',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection probe, sent as plain text
    '${7*7}',
    '__proto__',
    'constructor',
    '9'.repeat(400),
    '-1',
    'NaN',
    'Infinity',
    '1e309',
    'x'.repeat(100_000),
  ),
);

/** Any JSON value, of any shape, including ones no schema asks for. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.double(),
    fc.integer(),
    fc.constantFrom(0, -1, 2 ** 53, -(2 ** 63), 1e308, true, false, null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('__proto__', 'constructor')), tie('value'), {
      maxKeys: 5,
    }),
  ),
})).value;

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
  if (schema.pattern) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern));
    } catch {
      // a pattern fast-check cannot read: any string below
    }
  }
  return fc.string({
    unit: 'grapheme',
    minLength: schema.minLength ?? 0,
    maxLength: Math.min(schema.maxLength ?? 40, 300),
  });
}

/** Values that satisfy the schema, as far as JSON Schema says (refinements in code are the server's to check). */
export function arbitraryOf(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return hostileValue;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices && choices.length > 0) return fc.oneof(...choices.map((choice) => arbitraryOf(choice, depth + 1)));
  if (schema.allOf?.[0]) return arbitraryOf(schema.allOf[0], depth + 1);
  const types = [schema.type ?? []].flat();
  if (types.length > 1) return fc.oneof(...types.map((type) => arbitraryOf({ ...schema, type }, depth + 1)));
  switch (types[0]) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1_000_000, Number.MIN_SAFE_INTEGER),
        max: Math.min(schema.maximum ?? 1_000_000, Number.MAX_SAFE_INTEGER),
      });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(arbitraryOf(schema.items, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      });
    case 'object': {
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const record = Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [key, arbitraryOf(value, depth + 1)]),
      );
      return fc.record(record, { requiredKeys: [...required].filter((key) => key in properties) });
    }
    default:
      return hostileValue;
  }
}

/**
 * A value shaped by the schema and then pushed past it: most runs follow the schema (to reach the code behind the
 * validation), the rest are wrong types, missing or extra fields, and hostile strings in every place.
 */
export function fuzzedValue(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const valid = arbitraryOf(schema);
  const properties = Object.keys(schema?.properties ?? {});
  const broken =
    properties.length > 0
      ? fc
          .tuple(valid, fc.constantFrom(...properties), hostileValue)
          .map(([value, key, wrong]) => ({ ...(value as object), [key]: wrong }))
      : hostileValue;
  return fc.oneof(
    { arbitrary: valid, weight: 3 },
    { arbitrary: broken, weight: 2 },
    { arbitrary: hostileValue, weight: 1 },
  );
}
