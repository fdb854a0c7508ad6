// What several benchmarks need in a running shop: a signed-in customer or administrator, and an order holding many
// proxies. The address is confirmed in the database rather than through the mailed link (a benchmark reads no mail).
import { eq } from 'drizzle-orm';
import type { Db } from '../apps/server/src/db/client.ts';
import { orders, proxyIps, users } from '../apps/server/src/db/schema.ts';

export const BENCH_PASSWORD = 'Str0ng!pass';

/** Signs `email` up and in on the shop at `base`; an address in the server's ADMIN_EMAILS gets the admin role. */
export async function signedIn(base: string, db: Db, email: string): Promise<{ cookie: string; userId: string }> {
  const headers = { 'content-type': 'application/json', origin: base };
  const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password: BENCH_PASSWORD, name: 'bench' }),
  });
  if (!signUp.ok) throw new Error(`sign-up failed: ${signUp.status}`);
  // Confirmed here rather than through the mailed link (the sign-up answer names no account, known or new).
  const [user] = await db
    .update(users)
    .set({ emailVerified: true })
    .where(eq(users.email, email))
    .returning({ id: users.id });
  if (!user) throw new Error(`no account for ${email}`);
  const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  });
  return { cookie: (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '', userId: user.id };
}

/** A delivered Elite ISP order of `count` proxies (10.x addresses) for the customer; answers its id. */
export async function orderWithProxies(db: Db, userId: string, count: number): Promise<string> {
  const [order] = await db
    .insert(orders)
    .values({
      userId,
      productId: 'isp_proxies' as const,
      quantity: count,
      status: 'delivered',
      purchasedAt: new Date(),
      expiresAt: new Date(Date.now() + 30 * 86_400_000),
    })
    .returning();
  const rows = Array.from({ length: count }, (_, index) => {
    const ip = `10.${Math.floor(index / 62_500)}.${Math.floor(index / 250) % 250}.${(index % 250) + 1}`;
    return {
      productId: 'isp_proxies' as const,
      ip,
      port: 8000,
      username: 'user',
      password: 'secretpass',
      endpoint: `${ip}:8000:user:secretpass`,
      subnet: `${ip.split('.').slice(0, 3).join('.')}.0/24`,
      assignedOrderId: order?.id,
    };
  });
  for (let i = 0; i < rows.length; i += 2000) await db.insert(proxyIps).values(rows.slice(i, i + 2000));
  return order?.id ?? '';
}
