import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

export const DEVICE_COOKIE = 'storefront.device';
const DEVICE_COOKIE_DAYS = 180;

export interface DeviceCookies {
  /** The device id when the request carries a genuine device cookie for this e-mail address, else undefined. */
  read(request: FastifyRequest, email: string | undefined): string | undefined;
  /** A Set-Cookie value that marks this browser as one that signed in with `email`. */
  issue(email: string): string;
}

/**
 * Device cookies (OWASP's answer to lock-out attacks): after a successful sign-in the browser gets a signed, httpOnly
 * cookie naming a random device id and a keyed tag of the address. The sign-in limits then count that browser on its
 * own, so failed attempts from elsewhere never lock a customer out of the browser they use.
 */
export function createDeviceCookies(secret: string, secure: boolean): DeviceCookies {
  const key = createHmac('sha256', secret).update('storefront device cookie').digest();
  const mac = (value: string) => createHmac('sha256', key).update(value).digest('base64url').slice(0, 32);
  const tagOf = (email: string) => mac(`email:${email.toLowerCase()}`).slice(0, 16);

  return {
    read(request, email) {
      if (!email) return undefined;
      const value = new RegExp(`(?:^|;\\s*)${DEVICE_COOKIE.replace('.', '\\.')}=([^;]+)`).exec(
        request.headers.cookie ?? '',
      )?.[1];
      const [deviceId, tag, signature] = value?.split('.') ?? [];
      if (!deviceId || !tag || !signature || tag !== tagOf(email)) return undefined;
      const expected = Buffer.from(mac(`${deviceId}.${tag}`));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected) ? deviceId : undefined;
    },
    issue(email) {
      const payload = `${randomBytes(12).toString('base64url')}.${tagOf(email)}`;
      const attributes = [
        `${DEVICE_COOKIE}=${payload}.${mac(payload)}`,
        'Path=/api/auth',
        `Max-Age=${DEVICE_COOKIE_DAYS * 86_400}`,
        'HttpOnly',
        'SameSite=Lax',
      ];
      if (secure) attributes.push('Secure');
      return attributes.join('; ');
    },
  };
}
