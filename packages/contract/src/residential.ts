/**
 * The residential credential format, defined once: the Proxies page's list generator writes it and the residential gateway
 * reads it (ARCHITECTURE section 6). A line is `host:port:username-country-us-session-ab12cd34-duration-60[-hard]:password`.
 */

import { proxyLine } from './proxy-formats.ts';

/** Spec section 9: in the customer's view 1 GB is 1024 × 1000 KB; the gateway meters a KB as 1024 bytes. */
export const KB_PER_GB = 1024 * 1000;
export const BYTES_PER_KB = 1024;

export const GENERATOR_COUNT_MIN = 1;
export const GENERATOR_COUNT_MAX = 10_000;
export const GENERATOR_COUNT_DEFAULT = 2500;
export const SESSION_ID_LENGTH = 8;
export const SESSION_DURATION_MINUTES = 60;
export const STATIC_MARKER = 'hard';
const SESSION_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export type ResidentialProxyType = 'dynamic' | 'static';

export interface ResidentialTargeting {
  country: string;
  sessionId: string;
  durationMinutes: number;
  /** Static ('hard') keeps the same exit IP for the session; dynamic may rotate. */
  type: ResidentialProxyType;
}

export interface ResidentialCredentials {
  endpoint: string;
  username: string;
  password: string;
}

/** Spec section 9: a session id of 8 characters from lowercase letters and digits. */
export function newSessionId(random: (max: number) => number = (max) => Math.floor(Math.random() * max)): string {
  let id = '';
  for (let i = 0; i < SESSION_ID_LENGTH; i++) id += SESSION_ALPHABET[random(SESSION_ALPHABET.length)];
  return id;
}

/** The username the gateway reads: the account's name followed by the targeting. */
export function targetedUsername(username: string, targeting: ResidentialTargeting): string {
  const parts = [
    username,
    'country',
    targeting.country.toLowerCase(),
    'session',
    targeting.sessionId,
    'duration',
    String(targeting.durationMinutes),
  ];
  if (targeting.type === 'static') parts.push(STATIC_MARKER);
  return parts.join('-');
}

/** One generated line: endpoint, username with the targeting, password. */
export function residentialLine(credentials: ResidentialCredentials, targeting: ResidentialTargeting): string {
  return proxyLine(credentials.endpoint, targetedUsername(credentials.username, targeting), credentials.password);
}

/** Reads a targeted username back (the gateway's side); undefined when it is not in the format. */
export function parseTargetedUsername(value: string): ({ username: string } & ResidentialTargeting) | undefined {
  const match = /^([a-z0-9_]+)-country-([a-z]{2})-session-([a-z0-9]{8})-duration-(\d{1,4})(-hard)?$/.exec(value);
  if (!match) return undefined;
  const [, username, country, sessionId, duration, hard] = match;
  if (!username || !country || !sessionId || !duration) return undefined;
  return {
    username,
    country: country.toUpperCase(),
    sessionId,
    durationMinutes: Number(duration),
    type: hard ? 'static' : 'dynamic',
  };
}

/** Reads a whole generated line back: `host:port:targeted-username:password`. */
export function parseResidentialLine(line: string) {
  const [host, port, user, ...passwordParts] = line.split(':');
  const targeting = user ? parseTargetedUsername(user) : undefined;
  if (!host || !port || !/^\d+$/.test(port) || !targeting || passwordParts.length === 0) return undefined;
  return { endpoint: `${host}:${port}`, password: passwordParts.join(':'), ...targeting };
}

export interface GeneratorOptions {
  count: number;
  type: ResidentialProxyType;
  country: string;
}

/** The list generator (spec section 5): `count` lines, each with a new session id. */
export function generateResidentialList(
  credentials: ResidentialCredentials,
  options: GeneratorOptions,
  random?: (max: number) => number,
): string[] {
  const count = Math.min(GENERATOR_COUNT_MAX, Math.max(GENERATOR_COUNT_MIN, Math.floor(options.count)));
  return Array.from({ length: count }, () =>
    residentialLine(credentials, {
      country: options.country,
      sessionId: newSessionId(random),
      durationMinutes: SESSION_DURATION_MINUTES,
      type: options.type,
    }),
  );
}

const COUNTRY_TABLE = `AF Afghanistan|AL Albania|DZ Algeria|AD Andorra|AO Angola|AG Antigua and Barbuda|AR Argentina|AM Armenia|AU Australia|AT Austria|AZ Azerbaijan|BS Bahamas|BH Bahrain|BD Bangladesh|BB Barbados|BY Belarus|BE Belgium|BZ Belize|BJ Benin|BT Bhutan|BO Bolivia|BA Bosnia and Herzegovina|BW Botswana|BR Brazil|BN Brunei|BG Bulgaria|BF Burkina Faso|BI Burundi|CV Cabo Verde|KH Cambodia|CM Cameroon|CA Canada|CF Central African Republic|TD Chad|CL Chile|CN China|CO Colombia|KM Comoros|CG Congo|CD Congo (Democratic Republic)|CR Costa Rica|CI Côte d'Ivoire|HR Croatia|CU Cuba|CY Cyprus|CZ Czechia|DK Denmark|DJ Djibouti|DM Dominica|DO Dominican Republic|EC Ecuador|EG Egypt|SV El Salvador|GQ Equatorial Guinea|ER Eritrea|EE Estonia|SZ Eswatini|ET Ethiopia|FJ Fiji|FI Finland|FR France|GA Gabon|GM Gambia|GE Georgia|DE Germany|GH Ghana|GR Greece|GD Grenada|GT Guatemala|GN Guinea|GW Guinea-Bissau|GY Guyana|HT Haiti|HN Honduras|HK Hong Kong|HU Hungary|IS Iceland|IN India|ID Indonesia|IR Iran|IQ Iraq|IE Ireland|IL Israel|IT Italy|JM Jamaica|JP Japan|JO Jordan|KZ Kazakhstan|KE Kenya|KI Kiribati|KW Kuwait|KG Kyrgyzstan|LA Laos|LV Latvia|LB Lebanon|LS Lesotho|LR Liberia|LY Libya|LI Liechtenstein|LT Lithuania|LU Luxembourg|MO Macao|MG Madagascar|MW Malawi|MY Malaysia|MV Maldives|ML Mali|MT Malta|MH Marshall Islands|MR Mauritania|MU Mauritius|MX Mexico|FM Micronesia|MD Moldova|MC Monaco|MN Mongolia|ME Montenegro|MA Morocco|MZ Mozambique|MM Myanmar|NA Namibia|NR Nauru|NP Nepal|NL Netherlands|NZ New Zealand|NI Nicaragua|NE Niger|NG Nigeria|MK North Macedonia|NO Norway|OM Oman|PK Pakistan|PW Palau|PS Palestine|PA Panama|PG Papua New Guinea|PY Paraguay|PE Peru|PH Philippines|PL Poland|PT Portugal|PR Puerto Rico|QA Qatar|RO Romania|RU Russia|RW Rwanda|KN Saint Kitts and Nevis|LC Saint Lucia|VC Saint Vincent and the Grenadines|WS Samoa|SM San Marino|ST Sao Tome and Principe|SA Saudi Arabia|SN Senegal|RS Serbia|SC Seychelles|SL Sierra Leone|SG Singapore|SK Slovakia|SI Slovenia|SB Solomon Islands|SO Somalia|ZA South Africa|KR South Korea|SS South Sudan|ES Spain|LK Sri Lanka|SD Sudan|SR Suriname|SE Sweden|CH Switzerland|TW Taiwan|TJ Tajikistan|TZ Tanzania|TH Thailand|TL Timor-Leste|TG Togo|TO Tonga|TT Trinidad and Tobago|TN Tunisia|TR Türkiye|TM Turkmenistan|TV Tuvalu|UG Uganda|UA Ukraine|AE United Arab Emirates|GB United Kingdom|US United States|UY Uruguay|UZ Uzbekistan|VU Vanuatu|VE Venezuela|VN Vietnam|YE Yemen|ZM Zambia|ZW Zimbabwe`;

const FIRST_COUNTRIES = ['US', 'CA', 'GB'];

/** Spec section 3 'Country option list': about 190 countries, US, CA and GB first, then alphabetical by name. */
export const COUNTRY_OPTIONS: readonly { id: string; name: string }[] = (() => {
  const all = COUNTRY_TABLE.split('|').map((entry) => ({ id: entry.slice(0, 2), name: entry.slice(3) }));
  const first = FIRST_COUNTRIES.map((id) => all.find((country) => country.id === id)).filter(
    (country): country is { id: string; name: string } => country !== undefined,
  );
  const rest = all
    .filter((country) => !FIRST_COUNTRIES.includes(country.id))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return [...first, ...rest];
})();

export const DEFAULT_COUNTRY = 'US';

/**
 * A proxy user's gateway username: the account's username, an underscore and the proxy user's name (lower-case letters
 * and digits), then the usual targeting. Account usernames have no underscore, so the gateway splits at the first one.
 */
export function proxyUserUsername(accountUsername: string, name: string): string {
  return `${accountUsername}_${name}`;
}
