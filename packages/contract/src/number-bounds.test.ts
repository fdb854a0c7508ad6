import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contract from './index.ts';

/**
 * Every number a request schema (`…RequestSchema`, `…QuerySchema`, `…ParamsSchema`) takes is bounded both ways with its
 * own message, so a value an `integer` column cannot hold is a 400 with a sentence, never a failed insert. `.int()`
 * alone is not a bound (±2^53); an integer is at most 2^31 − 1 unless its column is a `bigint` (listed below).
 */
const INT32_MAX = 2_147_483_647;

/** Request fields stored in a `bigint` column: their bound is the largest integer a JavaScript number holds exactly. */
const BIGINT_FIELDS: Record<string, string> = {
  'setResidentialLimitRequestSchema.bandwidthLimit': 'residential_pool.bandwidth_limit_mb is a bigint (MB)',
  'createProxyUserRequestSchema.allowance.limitInKb': 'proxy_users.allowance_kb is a bigint (KB)',
  'updateProxyUserRequestSchema.allowance.limitInKb': 'proxy_users.allowance_kb is a bigint (KB)',
};

interface NumberFound {
  path: string;
  integer: boolean;
  min: number | undefined;
  max: number | undefined;
  /** Bound checks that would answer zod's own words ("Too big: expected number to be <=100"). */
  unworded: string[];
}

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

const BOUNDED_FORMATS: Record<string, [number, number]> = {
  int32: [-INT32_MAX - 1, INT32_MAX],
  uint32: [0, 4_294_967_295],
};

/** Every number (and bigint) inside a schema, through every wrapper zod 4 has, with its bounds. */
function numbersIn(schema: unknown, path: string, seen = new Set<unknown>()): NumberFound[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = defOf(schema);
  const inner = (child: unknown, at = path) => numbersIn(child, at, seen);
  switch (def.type) {
    case 'number':
    case 'bigint': {
      const checks = [def, ...((def.checks as { _zod: { def: Def } }[] | undefined) ?? []).map(defOf)];
      const found: NumberFound = { path, integer: false, min: undefined, max: undefined, unworded: [] };
      for (const check of checks) {
        const format = check.format as string | undefined;
        if (format && format !== 'float32' && format !== 'float64') found.integer = true;
        const bounded = format ? BOUNDED_FORMATS[format] : undefined;
        if (bounded) {
          found.min = Math.max(found.min ?? bounded[0], bounded[0]);
          found.max = Math.min(found.max ?? bounded[1], bounded[1]);
        }
        if (check.check === 'greater_than' || check.check === 'less_than') {
          const value = Number(check.value);
          if (check.check === 'greater_than') found.min = Math.max(found.min ?? value, value);
          else found.max = Math.min(found.max ?? value, value);
          if (typeof check.error !== 'function') found.unworded.push(`${check.check} ${value}`);
        }
      }
      return [found];
    }
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      return [
        ...Object.entries(shape).flatMap(([key, child]) => inner(child, `${path}.${key}`)),
        ...(def.catchall ? inner(def.catchall, `${path}.*`) : []),
      ];
    }
    case 'array':
      return inner(def.element, `${path}[]`);
    case 'set':
      return inner(def.valueType, `${path}[]`);
    case 'tuple':
      return [
        ...(def.items as unknown[]).flatMap((item, index) => inner(item, `${path}[${index}]`)),
        ...(def.rest ? inner(def.rest, `${path}[]`) : []),
      ];
    case 'record':
    case 'map':
      return [...inner(def.keyType, `${path}{key}`), ...inner(def.valueType, `${path}{}`)];
    case 'union':
      return (def.options as unknown[]).flatMap((option) => inner(option));
    case 'intersection':
      return [...inner(def.left), ...inner(def.right)];
    case 'pipe':
      return [...inner(def.in), ...inner(def.out)];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
    case 'success':
      return inner(def.innerType);
    case 'lazy':
      return inner((def.getter as () => unknown)());
    case 'promise':
      return inner(def.innerType);
    default:
      // string, boolean, enum, literal, transform, date, file, any, unknown…: no number to bound (a literal is its own).
      return [];
  }
}

/** What is wrong with one number of a request schema, or nothing. */
function problemsOf(found: NumberFound): string[] {
  const problems: string[] = [];
  const field = found.path;
  if (found.min === undefined || !Number.isFinite(found.min)) problems.push(`${field} has no lower bound`);
  if (found.max === undefined || !Number.isFinite(found.max)) problems.push(`${field} has no upper bound`);
  else if (found.integer) {
    const limit = BIGINT_FIELDS[field] ? Number.MAX_SAFE_INTEGER : INT32_MAX;
    if (found.max > limit) problems.push(`${field} may be ${found.max}, above ${limit}`);
  } else if (Math.abs(found.max) > Number.MAX_SAFE_INTEGER) {
    problems.push(`${field} may be ${found.max}`);
  }
  for (const check of found.unworded) problems.push(`${field}: ${check} has no message of its own`);
  return problems;
}

const isSchema = (value: unknown) => value instanceof z.ZodType;
const REQUEST_SIDE = /(Request|Query|Params)Schema$/;

describe('the numbers of the contract', () => {
  const schemas = Object.entries(contract).filter(([, value]) => isSchema(value));
  const requestSchemas = schemas.filter(([name]) => REQUEST_SIDE.test(name));

  it('finds the request schemas and walks into them', () => {
    expect(requestSchemas.length).toBeGreaterThanOrEqual(15);
    const numbers = requestSchemas.flatMap(([name, schema]) => numbersIn(schema, name));
    // Numbers every request of these kinds carries: if one is missed, the walker lost its way into a wrapper.
    expect(numbers.map((found) => found.path)).toEqual(
      expect.arrayContaining([
        'checkoutRequestSchema.quantity',
        'customCheckoutRequestSchema.quantity',
        'createCouponRequestSchema.amountOff',
        'createCouponRequestSchema.percentOff',
        'createCouponRequestSchema.durationInMonths',
        'createCouponRequestSchema.maxRedemptions',
        'proxyListQuerySchema.count',
        'setResidentialLimitRequestSchema.bandwidthLimit',
      ]),
    );
  });

  it('bounds every number a request can carry, above and below, each bound with its own message', () => {
    const problems = requestSchemas.flatMap(([name, schema]) => numbersIn(schema, name).flatMap(problemsOf));
    expect(problems).toEqual([]);
  });

  it('knows every bigint exception it lists', () => {
    const paths = new Set(requestSchemas.flatMap(([name, schema]) => numbersIn(schema, name).map((n) => n.path)));
    for (const field of Object.keys(BIGINT_FIELDS)) expect(paths).toContain(field);
  });

  it('the walker itself: catches an unbounded number behind every kind of wrapper, and passes a bounded one', () => {
    const unbounded = z.number().int();
    const wrapped = z
      .object({
        a: unbounded,
        b: z.array(z.number().min(0, 'at least 0')),
        c: z.union([z.string(), z.number().max(5, 'at most 5')]),
        d: z.number().int().min(1, 'x').max(9_007_199_254_740_991, 'y').nullish(),
        e: z.coerce.number().default(1),
        f: z.string().transform(Number).pipe(z.number().min(1, 'x').max(2, 'y')),
        g: z.number().min(1).max(2),
        h: z.int32(),
      })
      .superRefine(() => {});
    const problems = numbersIn(wrapped, 'test').flatMap(problemsOf);
    expect(problems).toEqual([
      'test.a has no lower bound',
      'test.a has no upper bound',
      'test.b[] has no upper bound',
      'test.c has no lower bound',
      'test.d may be 9007199254740991, above 2147483647',
      'test.e has no lower bound',
      'test.e has no upper bound',
      'test.g: greater_than 1 has no message of its own',
      'test.g: less_than 2 has no message of its own',
    ]);
  });
});
