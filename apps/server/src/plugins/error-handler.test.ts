import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeValidation, zodMessageInWords } from './error-handler.ts';

/** zod's own message for `input` against `schema`, as the validator hands it over. */
const messageOf = (schema: z.ZodType, input: unknown) => schema.safeParse(input).error?.issues[0]?.message ?? '';

describe("zod's generic messages in plain words", () => {
  it.each([
    [z.string(), undefined, 'newPassword is required'],
    [z.string(), ['us', 'gb'], 'newPassword must be a string'],
    [z.number(), 'abc', 'newPassword must be a number'],
    [z.object({}), 1, 'newPassword must be an object'],
    [z.number().min(1), 0, 'newPassword must be at least 1'],
    [z.number().max(10_000), 20_000, 'newPassword must be at most 10000'],
    [z.number().positive(), 0, 'newPassword must be more than 0'],
    [z.string().min(2), 'a', 'newPassword must be at least 2 characters'],
    [z.string().max(3), 'abcd', 'newPassword must be at most 3 characters'],
    [z.array(z.string()).max(1), ['a', 'b'], 'newPassword must be at most 1 item'],
    [z.enum(['a', 'b']), 'c', 'newPassword must be one of "a", "b"'],
  ])('%#: %s', (schema, input, words) => {
    expect(zodMessageInWords('newPassword', messageOf(schema, input))).toBe(words);
  });

  it('says a query parameter given twice must be given once (in a body, a list is simply the wrong type)', () => {
    expect(zodMessageInWords('country', messageOf(z.string(), ['us', 'gb']), true)).toBe('country must be given once');
  });

  it('keeps a message of another form after the field, and the contract’s own sentences as written', () => {
    expect(zodMessageInWords('name', 'Something else')).toBe('name: Something else');
    const issue = (message: string, path: string[]) => ({ params: { issue: { message, path } } });
    expect(
      describeValidation('body', [
        issue('Invalid input: expected string, received undefined', ['newPassword']),
        issue('Too small: expected number to be >=1', ['quantity']),
      ]),
    ).toBe('Invalid request. newPassword is required; quantity must be at least 1');
    expect(describeValidation('body', [issue('This coupon code does not exist.', ['coupon'])])).toBe(
      'This coupon code does not exist.',
    );
  });
});
