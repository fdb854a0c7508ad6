import { describe, expect, it } from 'vitest';
import { COUPON_NAME_MAX, couponMessages } from './admin.ts';
import { adminUserLookupQuerySchema, createCouponRequestSchema, swapSubnetRequestSchema } from './schemas/admin.ts';

/** zod's own English (what the server prefixes with a field path): never what a person should read. */
const ZOD_WORDING = /^(Invalid (input|option|string|number|key|element|value|type)|Too (big|small)|Unrecognized key)/;
const firstMessage = (result: { error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message ?? '';

describe('what the admin screens can send is refused in sentences, not in schema wording', () => {
  it('a looked-up address too long', () => {
    const message = firstMessage(adminUserLookupQuerySchema.safeParse({ email: `${'a'.repeat(250)}@example.com` }));
    expect(message).toBe('Email must be at most 254 characters');
  });

  it('a swapped endpoint line too long', () => {
    const message = firstMessage(
      swapSubnetRequestSchema.safeParse({ subnet: '198.18.5.0/24', newEndpoints: [`1.2.3.4:80:u:${'p'.repeat(400)}`] }),
    );
    expect(message).not.toBe('');
    expect(message).not.toMatch(ZOD_WORDING);
  });

  it('a coupon name too long', () => {
    const coupon = {
      code: 'SPRING',
      duration: 'once',
      discountType: 'percent_off',
      percentOff: 10,
      appliesToProducts: ['isp_proxies'],
    };
    const long = createCouponRequestSchema.safeParse({ ...coupon, name: 'n'.repeat(COUPON_NAME_MAX + 1) });
    expect(firstMessage(long)).toBe('Coupon name must be at most 100 characters');
    expect(firstMessage(long)).toBe(couponMessages.nameTooLong);
    expect(createCouponRequestSchema.safeParse({ ...coupon, name: 'n'.repeat(COUPON_NAME_MAX) }).success).toBe(true);
  });
});
