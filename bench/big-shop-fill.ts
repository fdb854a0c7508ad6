// The big shop of bench/big-shop.ts, filled by set-based SQL into a migrated, seeded database: 1,000,000 IPs, 100,000
// customers, 300,000 orders with their payments, redemptions, audit log, residential usage, a year of sent e-mails and
// the payment events handled. Shared by the benchmarks that need a big shop (big-shop.ts, renewal-peak.ts).
//   BIG_SHOP_IPS=100000 BIG_SHOP_CUSTOMERS=10000 scale it down (quick to try).
import pg from 'pg';

const wholeEnv = (name: string, fallback: number, min: number, max: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} is a whole number ${min}–${max}`);
  return value;
};
export const IPS = wholeEnv('BIG_SHOP_IPS', 1_000_000, 10_000, 3_000_000);
export const CUSTOMERS = wholeEnv('BIG_SHOP_CUSTOMERS', 100_000, 1_000, 1_000_000);
export const ORDERS = CUSTOMERS * 3;
export const AUDIT_ENTRIES = IPS;
const USAGE_CUSTOMERS = Math.round(CUSTOMERS / 10);
const PER_SUBNET = 200;
const SUBNETS = Math.ceil(IPS / PER_SUBNET);

// ---------------------------------------------------------------------------------------------------------------------
// The fill: set-based SQL, a few statements a step.

/** The pools: Elite ISP takes the first 60 % of the /24s, PK1 the rest; 80 % of each pool is sold, ~2.5 % burnt. */
const ISP_SUBNETS = Math.round(SUBNETS * 0.6);
const POOL = { isp: Math.min(IPS, ISP_SUBNETS * PER_SUBNET), pk1: 0 };
POOL.pk1 = IPS - POOL.isp;
const soldCap = (size: number) => Math.floor(size * 0.8);
/** Burnt IPs are every 33rd below this position of the pool (the old, sold part); none above it. */
const burntBelow = (size: number) => Math.floor(size * 0.83);

function fillSteps(appUrl: string): [string, string][] {
  const C = CUSTOMERS;
  const months = (from: string) =>
    `(extract(year from age(now(), ${from})) * 12 + extract(month from age(now(), ${from})))::int`;
  return [
    [
      `${C.toLocaleString('en-US')} customers (users, sign-in accounts, sessions, settings)`,
      `
      create temp table plan_users as
        select n, gen_random_uuid()::text as id, 'customer' || n || '@mail' || (n % 7) || '.example.com' as email,
          now() - random() * interval '730 days' as created_at
        from generate_series(0, ${C - 1}) n;
      alter table plan_users add primary key (n);
      insert into users (id, name, email, email_verified, created_at, updated_at, role, banned, ban_reason,
          two_factor_enabled)
        select id, 'Customer ' || n, email, true, created_at, created_at, 'user', n % 5000 = 17,
          case when n % 5000 = 17 then 'Abuse report' end, false
        from plan_users;
      -- better-auth's rows: a password login (scrypt's salt:key in hex) for most, a Google login for one in ten.
      insert into accounts (id, account_id, provider_id, user_id, password, scope, created_at, updated_at)
        select gen_random_uuid()::text, case when n % 10 = 0 then (100000000000000000 + n)::text else id end,
          case when n % 10 = 0 then 'google' else 'credential' end, id,
          case when n % 10 <> 0 then md5(id) || ':' || md5(id || 'a') || md5(id || 'b') || md5(id || 'c') || md5(id || 'd') end,
          case when n % 10 = 0 then 'openid,email,profile' end, created_at, created_at
        from plan_users;
      insert into sessions (id, token, user_id, expires_at, ip_address, user_agent, created_at, updated_at)
        select gen_random_uuid()::text, md5(id || 's') || md5(random()::text), id,
          now() + interval '7 days' - random() * interval '10 days', '198.51.100.' || (n % 250 + 1),
          'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
          now() - random() * interval '7 days', now()
        from plan_users where n % 10 < 3;
      insert into customer_preferences (user_id, usage_emails, authorized_ips_only)
        select id, n % 20 <> 1, n % 50 = 2 from plan_users where n % 20 = 1 or n % 50 = 2;
      insert into authorized_ips (ip, user_id, created_at)
        select '81.' || (v / 62500) || '.' || (v / 250 % 250) || '.' || (v % 250 + 1), id, created_at
        from plan_users cross join lateral (select n * 2 + k as v from generate_series(0, 1) k) x
        where n % 50 = 2;`,
    ],
    [
      '40 coupons with their promo codes (10 deleted)',
      `
      create temp table plan_codes as
        select k, gen_random_uuid() as coupon_id, gen_random_uuid() as code_id,
          case when k % 8 <> 7 then 5 + (k * 7) % 46 end as percent_off,
          case when k % 8 = 7 then 500 + k * 100 end as amount_off,
          case when k % 5 = 3 then 'repeating' when k % 11 = 4 then 'forever' else 'once' end as duration,
          k >= 30 as deleted, now() - (40 - k) * interval '18 days' as created_at
        from generate_series(0, 39) k;
      insert into coupons (id, name, percent_off, amount_off_cents, currency, duration, duration_in_months, created_at,
          deleted_at)
        select coupon_id, 'Campaign ' || k, percent_off, amount_off, 'usd', duration,
          case when duration = 'repeating' then 3 end, created_at, case when deleted then created_at + interval '60 days' end
        from plan_codes;
      insert into coupon_products (coupon_id, product_id)
        select coupon_id, p from plan_codes, unnest(array['isp_proxies', 'pk1_isp_proxies', 'residential_proxies']) p;
      insert into promo_codes (id, coupon_id, code, active, created_at, deleted_at)
        select code_id, coupon_id, 'SAVE' || k || upper(substr(md5(k::text), 1, 4)), k % 9 <> 8, created_at,
          case when deleted then created_at + interval '60 days' end
        from plan_codes;`,
    ],
    [
      `${ORDERS.toLocaleString('en-US')} orders (live, expired, residential, waiting, unpaid)`,
      `
      -- One row per order: its customer (skewed: a few resellers hold a hundred orders, most customers one to three),
      -- its product, what became of it, its quantity (the bundles; mostly the smallest).
      create temp table plan_orders as
        with r as (
          select n, random() as r_user, random() as r_prod, random() as r_status, random() as r_qty, random() as r_time,
            random() as r_flag, random() as r_months
          from generate_series(0, ${ORDERS - 1}) n
        ), k as (
          select r.*,
            case when n % 20000 in (1, 2) then 'pk1_isp_proxies' when n % 30000 = 3 then 'residential_proxies'
              when r_prod < 0.45 then 'isp_proxies' when r_prod < 0.80 then 'pk1_isp_proxies'
              else 'residential_proxies' end as product_id,
            case when n % 20000 = 1 then 'custom_paid' when n % 20000 = 2 then 'custom_unpaid'
              when n % 30000 = 3 then 'res_waiting' when r_status < 0.004 then 'awaiting'
              when r_prod >= 0.80 then 'res' when r_status < 0.60 then 'expired' else 'live' end as kind
          from r
        )
        select n, gen_random_uuid() as id, least(floor(${C} * power(r_user, 1.5))::int, ${C - 1}) as user_no,
          product_id, kind, r_time, r_flag, r_months,
          case
            when kind like 'custom%' then 100
            when product_id = 'residential_proxies' then
              case when r_qty < 0.35 then 2 when r_qty < 0.65 then 5 when r_qty < 0.85 then 10 when r_qty < 0.95 then 30
                when r_qty < 0.99 then 50 else 100 end
            when product_id = 'isp_proxies' then
              case when r_qty < 0.85 then 5 when r_qty < 0.93 then 10 when r_qty < 0.97 then 50
                when r_qty < 0.99 then 100 when r_qty < 0.997 then 200 when r_qty < 0.999 then 500
                else 1 + floor(r_flag * 300)::int end
            else
              case when r_qty < 0.85 then 5 when r_qty < 0.93 then 25 when r_qty < 0.97 then 50 when r_qty < 0.985 then 75
                when r_qty < 0.995 then 100 when r_qty < 0.998 then 150 else 200 end
          end as quantity,
          0::bigint as cum
        from k;
      -- The live static orders share each pool's sold part in turn; those it cannot hold ended long ago (expired).
      update plan_orders p set cum = c.cum
        from (select id, sum(quantity) over (partition by product_id order by id) as cum from plan_orders where kind = 'live') c
        where c.id = p.id;
      update plan_orders set kind = 'expired'
        where kind = 'live' and cum > case product_id when 'isp_proxies' then ${soldCap(POOL.isp)} else ${soldCap(POOL.pk1)} end;
      alter table plan_orders add primary key (id);
      -- Dates: a live order renewed each month since its purchase (up to 6 months ago) runs to its next period end; an
      -- expired one paid 1 to 3 months, up to 2 years ago; a failed renewal (0.3 %) is in its 3 days of grace.
      create temp table plan_dated as
        select p.*, b.purchased_at, b.expires_at, b.renewals,
          coalesce(b.purchased_at - p.r_flag * interval '20 minutes', now() - p.r_time * interval '36 hours') as created_at
        from plan_orders p
        cross join lateral (select case p.kind
            when 'live' then now() - p.r_time * interval '180 days'
            when 'expired' then now() - interval '40 days' - p.r_time * interval '690 days'
            when 'res' then now() - p.r_time * interval '700 days'
            when 'res_waiting' then now() - p.r_time * interval '2 days'
            when 'custom_paid' then now() - p.r_time * interval '2 days'
          end as p0) a
        cross join lateral (select ${months('a.p0')} as m) m
        cross join lateral (select
            case when p.kind = 'live' and p.r_flag < 0.003 then 1 + p.n % 5
              when p.kind = 'live' then case when a.p0 + make_interval(months => m.m + 1) > now() then m.m + 1 else m.m + 2 end
              when p.kind = 'expired' then greatest(1, least(1 + floor(p.r_months * 3)::int, m.m))
              when p.kind = 'custom_paid' then 1
            end as paid_months) q
        cross join lateral (select
            case when p.kind = 'live' and p.r_flag < 0.003
              then now() - p.r_months * interval '2 days' - make_interval(months => q.paid_months) else a.p0 end
              as purchased_at,
            case when p.kind = 'live' and p.r_flag < 0.003 then now() - p.r_months * interval '2 days'
              when p.kind = 'expired' then least(now(), a.p0 + make_interval(months => q.paid_months))
              when q.paid_months is not null then a.p0 + make_interval(months => q.paid_months)
              else null end as expires_at,
            case when a.p0 is null then -1 when q.paid_months is null then 0 else q.paid_months - 1 end as renewals) b;
      insert into orders (id, user_id, product_id, quantity, status, cancelled, payment_failed, purchased_at, expires_at,
          unit_price_cents, discount_cents, total_cents, currency, promo_code_id, provider, provider_checkout_id,
          checkout_url, grace_ends_at, reminded_for, custom, sandbox_card, created_at, updated_at)
        select d.id, u.id, d.product_id, d.quantity,
          case d.kind when 'live' then 'delivered' when 'res' then 'delivered' when 'expired' then 'expired'
            when 'res_waiting' then 'processing' when 'custom_paid' then 'processing' else 'awaiting_payment' end,
          (d.kind = 'live' and d.r_flag between 0.003 and 0.063) or (d.kind = 'expired' and d.r_flag < 0.6),
          (d.kind = 'live' and d.r_flag < 0.003) or (d.kind = 'expired' and d.r_flag >= 0.95),
          d.purchased_at, d.expires_at, x.unit, x.discount, x.unit * d.quantity - x.discount, 'usd',
          case when x.promo then c.code_id end, 'sandbox', 'cs_sandbox_' || substr(md5(d.id::text), 1, 24),
          '${appUrl}/sandbox/checkout/cs_sandbox_' || substr(md5(d.id::text), 1, 24),
          case when d.r_flag < 0.003 and d.kind = 'live' or d.r_flag >= 0.95 and d.kind = 'expired'
            then d.expires_at + interval '3 days' end,
          case when d.kind = 'live' and d.r_flag >= 0.003 and d.expires_at <= now() + interval '3 days' then d.expires_at end,
          d.kind like 'custom%', case when d.purchased_at is not null then 'ok' end, d.created_at,
          coalesce(case when d.kind = 'expired' then d.expires_at end, d.purchased_at, d.created_at)
        from plan_dated d
        join plan_users u on u.n = d.user_no
        join plan_codes c on c.k = (d.n / 6) % 40
        cross join lateral (select
            case when d.product_id = 'residential_proxies' then 500 else 250 end as unit,
            d.n % 6 = 0 and d.purchased_at is not null as promo) y
        cross join lateral (select y.unit,
            case when not y.promo then 0 when c.percent_off is not null then round(y.unit * d.quantity * c.percent_off / 100.0)::int
              else least(c.amount_off, y.unit * d.quantity) end as discount, y.promo) x;`,
    ],
    [
      `${IPS.toLocaleString('en-US')} IPs in ${SUBNETS.toLocaleString('en-US')} /24s, assigned to the live orders`,
      `
      create temp table plan_slots as
        select product_id, g as rank, id as order_id
        from plan_orders cross join lateral generate_series(cum - quantity, cum - 1) g
        where kind = 'live';
      insert into proxy_ips (product_id, ip, port, username, password, endpoint, subnet, assigned_order_id, need_rotated,
          created_at)
        select x.product_id, x.ip, x.port, x.username, x.password, x.ip || ':' || x.port || ':' || x.username || ':' || x.password,
          x.subnet, s.order_id, x.burnt, x.created_at
        from (
          select i, product_id, ip, subnet, 10000 + (i::bigint * 7919) % 50000 as port, 'u' || substr(md5(i::text), 1, 8) as username,
            substr(md5(i || 'p'), 1, 14) as password, burnt,
            case when not burnt and k < burnt_below then k - k / 33 - 1 end as rank,
            now() - (1 - (k / ${PER_SUBNET} * ${PER_SUBNET})::float8 / pool) * interval '700 days' as created_at
          from (
            select i, '100.' || (64 + (i / ${PER_SUBNET}) / 256) || '.' || ((i / ${PER_SUBNET}) % 256) as prefix,
              i % ${PER_SUBNET} + 1 as host,
              case when i < ${POOL.isp} then 'isp_proxies' else 'pk1_isp_proxies' end as product_id,
              case when i < ${POOL.isp} then i else i - ${POOL.isp} end as k,
              case when i < ${POOL.isp} then ${POOL.isp} else ${POOL.pk1} end as pool,
              case when i < ${POOL.isp} then ${burntBelow(POOL.isp)} else ${burntBelow(POOL.pk1)} end as burnt_below
            from generate_series(0, ${IPS - 1}) i
          ) a
          cross join lateral (select a.prefix || '.' || a.host as ip, a.prefix || '.0/24' as subnet,
            a.k % 33 = 0 and a.k < a.burnt_below as burnt) b
        ) x
        left join plan_slots s on s.product_id = x.product_id and s.rank = x.rank;`,
    ],
    [
      'payments (a checkout payment per paid order, a renewal per month since)',
      `
      insert into payments (order_id, user_id, kind, invoice_id, hosted_invoice_url, status, amount_cents, discount_cents,
          currency, paid_at, created_at)
        select o.id, o.user_id, case when k = 0 then 'checkout' else 'renewal' end, x.invoice,
          '${appUrl}/sandbox/invoices/' || x.invoice, 'paid',
          case when k = 0 then o.total_cents else o.unit_price_cents * o.quantity end,
          case when k = 0 then o.discount_cents else 0 end, 'usd', x.paid_at, x.paid_at
        from orders o
        join plan_dated d on d.id = o.id
        cross join lateral generate_series(0, d.renewals) k
        cross join lateral (select 'in_sandbox_' || substr(md5(o.id::text || ':' || k), 1, 24) as invoice,
          o.purchased_at + make_interval(months => k) as paid_at) x
        where o.purchased_at is not null;`,
    ],
    [
      'coupon redemptions (one paid order in six used a code)',
      `
      insert into coupon_redemptions (promo_code_id, order_id, email, redeemed_at)
        select o.promo_code_id, o.id, u.email, o.purchased_at
        from orders o join users u on u.id = o.user_id
        where o.promo_code_id is not null;
      update promo_codes p set times_redeemed = c.n, customers = c.customers
        from (select promo_code_id, count(*) as n, count(distinct email) as customers
          from coupon_redemptions group by promo_code_id) c
        where c.promo_code_id = p.id;`,
    ],
    [
      `residential accounts, the pool, 90 days of usage (by day, by hour, by domain) for ${USAGE_CUSTOMERS.toLocaleString('en-US')} customers`,
      `
      insert into residential_accounts (user_id, username, password, total_kb, used_kb, created_at, updated_at)
        select user_id, 'res' || substr(md5(user_id || 'r'), 1, 12), substr(md5(user_id || 'pw'), 1, 16),
          sum(quantity)::bigint * 1024000, 0, min(purchased_at), max(purchased_at)
        from orders where product_id = 'residential_proxies' and status = 'delivered'
        group by user_id;
      create temp table plan_usage as
        select user_id, total_kb, 0.2 + random() * 3.3 as f from residential_accounts order by md5(user_id) limit ${USAGE_CUSTOMERS};
      insert into residential_usage_daily (user_id, day, used_kb)
        select user_id, (now() at time zone 'utc')::date - d, greatest(1, (total_kb * f / 400 * (0.3 + random() * 1.4))::bigint)
        from plan_usage cross join generate_series(0, 89) d;
      -- The usage analytics of the same customers: every hour of the 90 days (one country an hour, of four), and 20
      -- target domains a day, as the gateway records them.
      insert into residential_usage_hourly (user_id, hour, proxy_user_id, country, upload_bytes, download_bytes, connections)
        select user_id, date_trunc('hour', now()) - h * interval '1 hour', '', (array['US', 'DE', 'GB', 'JP'])[1 + h % 4],
          (total_kb * f / 400 / 24 * 20)::bigint, (total_kb * f / 400 / 24 * 1000 * (0.3 + random() * 1.4))::bigint,
          1 + (random() * 40)::int
        from plan_usage cross join generate_series(0, 90 * 24 - 1) h;
      insert into residential_usage_domains (user_id, day, proxy_user_id, country, domain, upload_bytes, download_bytes,
          connections)
        select user_id, (now() at time zone 'utc')::date - d, '', 'US', 'site' || k || '.example.com',
          (total_kb * f / 400 / 20 * 20)::bigint, (total_kb * f / 400 / 20 * 1000 * (0.3 + random() * 1.4))::bigint,
          1 + (random() * 40)::int
        from plan_usage cross join generate_series(0, 89) d cross join generate_series(1, 20) k;
      update residential_accounts a set used_kb = least(a.total_kb, s.kb + (a.total_kb * 0.05 * random())::bigint)
        from (select user_id, sum(used_kb) as kb from residential_usage_daily group by user_id) s
        where s.user_id = a.user_id;
      update residential_accounts
        set used_kb = case when random() < 0.05 then total_kb else (total_kb * random() * 0.9)::bigint end
        where user_id not in (select user_id from plan_usage);
      -- The usage e-mails already went out (the periodic job would otherwise write thousands at its first run).
      update residential_accounts
        set usage_mailed_80_at_kb = case when used_kb * 5 >= total_kb * 4 then total_kb end,
          usage_mailed_100_at_kb = case when used_kb >= total_kb then total_kb end;
      -- Sold out but 1 GB: the few residential orders waiting stay waiting.
      with sold as (select coalesce(sum(quantity), 0) * 1000 as mb from orders
          where product_id = 'residential_proxies' and status = 'delivered')
        update residential_pool set bandwidth_used_mb = sold.mb, bandwidth_limit_mb = sold.mb + 1000 from sold;`,
    ],
    [
      `${AUDIT_ENTRIES.toLocaleString('en-US')} audit-log entries over two years`,
      `
      insert into admin_audit_log (actor_user_id, actor_email, action, summary, details, created_at)
        select case when a.action like 'alert.%' then 'system' else 'staff-' || (n % 3) end,
          case when a.action like 'alert.%' then 'system (alerts)' else 'admin' || (n % 3) || '@shop.example.com' end,
          a.action,
          case a.action
            when 'ips.upload' then q || ' Elite ISP IPs added, 0 already there'
            when 'subnet.swap' then 'Subnet 100.' || (64 + n % 20) || '.' || (n % 256) || '.0/24 swapped: ' || q || ' new endpoints'
            when 'feature.toggle' then 'Residential Proxies switched ' || case when n % 2 = 0 then 'off' else 'on' end
            when 'residential.limit' then 'Residential pool ' || to_char(n * 10, 'FM999,999,999') || ' MB → '
              || to_char(n * 10 + 50000, 'FM999,999,999') || ' MB'
            when 'coupon.create' then 'Coupon SAVE' || (n % 40) || ' created: ' || (5 + n % 46) || '% off, once'
            when 'coupon.toggle' then 'Promo code SAVE' || (n % 40) || ' switched ' || case when n % 2 = 0 then 'off' else 'on' end
            when 'custom.create' then 'Custom PK1 order of ' || q || ' IPs for customer' || (n % ${C}) || '@example.com'
            when 'custom.fulfil' then 'Custom PK1 order fulfilled with ' || q || ' IPs'
            when 'alert.open' then 'Opened: Paid orders waiting: ' || q || ' Elite ISP IPs since ' || to_char(now(), 'YYYY-MM-DD')
            else 'Resolved: Paid orders waiting: ' || q || ' Elite ISP IPs'
          end,
          jsonb_build_object('pool', case when n % 2 = 0 then 'isp' else 'pk1' end, 'count', q, 'seq', n),
          now() - ((${AUDIT_ENTRIES} - n)::float8 / ${AUDIT_ENTRIES}) * interval '730 days' - random() * interval '1 minute'
        from generate_series(0, ${AUDIT_ENTRIES - 1}) n
        cross join lateral (select (array['ips.upload', 'subnet.swap', 'feature.toggle', 'residential.limit', 'coupon.create',
          'coupon.toggle', 'custom.create', 'custom.fulfil', 'alert.open', 'alert.resolve'])[1 + n % 10] as action,
          (n * 37) % 1000 + 1 as q) a;`,
    ],
    [
      'API keys (one customer in five), resolved alerts',
      `
      insert into api_keys (user_id, name, start, key_hash, created_at, last_used_at)
        select id, 'Key of customer ' || n, 'psk_' || substr(md5(id || 'k'), 1, 8),
          translate(encode(sha256(convert_to(id || ':key', 'UTF8')), 'base64'), '+/=', '-_'),
          created_at + interval '1 day', case when n % 3 = 0 then now() - random() * interval '3 days' end
        from plan_users where n % 5 = 0;
      insert into alerts (kind, subject, details, opened_at, resolved_at, notified_at)
        select kind, case kind when 'low_stock' then 'isp_proxies' when 'job_stuck' then 'periodic' else gen_random_uuid()::text end,
          case kind
            when 'order_waiting' then jsonb_build_object('orderId', gen_random_uuid(), 'productId', 'isp_proxies',
              'quantity', 50, 'customerEmail', 'customer' || n || '@mail1.example.com', 'since', opened, 'custom', false)
            when 'low_stock' then jsonb_build_object('productId', 'isp_proxies', 'available', 40, 'threshold', 50)
            when 'outbox_failing' then jsonb_build_object('messageId', gen_random_uuid(), 'to', 'customer' || n || '@mail2.example.com',
              'subject', 'Your receipt', 'attempts', 5, 'lastError', 'connect ETIMEDOUT', 'since', opened)
            else jsonb_build_object('failuresInARow', 3, 'lastError', 'timeout', 'lastSuccessAt', opened, 'firstRunAt', opened,
              'intervalSeconds', 60)
          end,
          opened, opened + random() * interval '2 days', opened
        from generate_series(0, ${Math.round(C / 20) - 1}) n
        cross join lateral (select (array['order_waiting', 'low_stock', 'outbox_failing', 'job_stuck'])[1 + n % 4] as kind,
          now() - interval '3 days' - random() * interval '700 days' as opened) a;`,
    ],
    [
      `${ORDERS.toLocaleString('en-US')} sent e-mails over a year, a handled payment event per payment, verifications`,
      `
      -- A year of sent e-mails (receipts, reminders), about 1.2 KB each as the shop writes them, never pruned before.
      insert into email_outbox (dedupe_key, to_address, subject, text, html, attempts, next_attempt_at, created_at, sent_at)
        select 'filled:' || n, 'customer' || (n % ${C}) || '@mail' || (n % 7) || '.example.com',
          'Renewal receipt: $12.50 for Elite ISP Proxies',
          'Thank you for your payment of $12.50 for 5 Elite ISP Proxies, order ' || md5(n::text) || '. ' ||
            repeat('Your proxies renew each month until you cancel them. ', 6),
          '<!doctype html><html><body><table><tr><td>' || md5(n::text) || '</td></tr>' ||
            repeat('<tr><td style="padding:8px;font-family:sans-serif">Your proxies renew each month.</td></tr>', 12) ||
            '</table></body></html>',
          1, t, t, t
        from generate_series(0, ${ORDERS - 1}) n
        cross join lateral (select now() - (n::float8 / ${ORDERS}) * interval '365 days' - random() * interval '1 hour' as t) x;
      insert into webhook_events (provider, event_id, type, received_at)
        select 'sandbox', 'sandbox-fill:' || id, 'sandbox.' || kind || '.paid', paid_at from payments;
      insert into verifications (id, identifier, value, expires_at, created_at, updated_at)
        select gen_random_uuid()::text, 'reset-password:' || md5(n::text), md5(n::text || 'v'), t + interval '1 hour', t, t
        from generate_series(0, ${Math.round(C / 5) - 1}) n
        cross join lateral (select now() - random() * interval '90 days' as t) x;`,
    ],
  ];
}

/** Fills the database at `url` (migrated and seeded, no demo stock); answers each step's time. */
export async function fillBigShop(url: string, appUrl: string): Promise<{ step: string; seconds: number }[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const timings: { step: string; seconds: number }[] = [];
  const timed = async (step: string, text: string) => {
    const start = performance.now();
    await client.query(text);
    const seconds = (performance.now() - start) / 1000;
    timings.push({ step, seconds });
    console.log(`  ${seconds.toFixed(1).padStart(6)} s  ${step}`);
  };
  try {
    // This session's own settings: memory for the sorts and hashes of the fill; a crash loses a throwaway database.
    await client.query(`set work_mem = '256MB'; set maintenance_work_mem = '512MB'; set synchronous_commit = off`);
    for (const [step, text] of fillSteps(appUrl)) await timed(step, text);
    await timed('VACUUM ANALYZE (statistics and visibility, as autovacuum keeps them)', 'vacuum analyze');
  } finally {
    await client.end();
  }
  return timings;
}
