/**
 * What must never be in a log, as patterns over its text: the test suite's passwords, session and bearer tokens, API
 * keys, reset and confirmation tokens, payment provider secrets, and card-like numbers (13 to 19 digits passing Luhn).
 * `npm run proof` scans the log of the whole API suite with it (scripts/proof.ts).
 */
const PATTERNS: [string, RegExp][] = [
  ['a test password', /Str0ng!pass|N3w!passphrase|Passw0rd!/],
  ['a session token', /session_token=(?!\[redacted\])[^;\s",]{8,}/i],
  ['a bearer token', /Bearer\s+(?!\[redacted\])[A-Za-z0-9._~+/=-]{16,}/],
  ['an API key', /psk_[A-Za-z0-9_-]{20,}/],
  ['a reset or confirmation token', /\/(?:reset-password|verify-email)\/(?!\[redacted\])[A-Za-z0-9_-]{8,}/],
  ['a token in a query', /[?&](?:token|code|state|key|otp)=(?!\[redacted\])[^&\s"]{8,}/i],
  ['a payment secret', /\b(?:sk|rk)_(?:test|live)_[A-Za-z0-9]{6,}|\bwhsec_[A-Za-z0-9]{6,}/],
  ['a password field', /"(?:password|newPassword|currentPassword)"\s*:\s*"(?!\[redacted\])[^"]+"/],
];

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Each secret-looking thing in the text, as "what: excerpt", one per line it was found on. */
export function findSecrets(text: string): string[] {
  const findings: string[] = [];
  for (const line of text.split('\n')) {
    for (const [what, pattern] of PATTERNS) {
      const match = pattern.exec(line);
      if (match) findings.push(`${what}: ${match[0].slice(0, 60)}`);
    }
    // Whole numbers only: not a run of digits inside an id (a UUID's groups are hex words joined by hyphens).
    for (const match of line.matchAll(/(?<![\w.-])\d(?:[ -]?\d){12,18}(?![\w.-])/g)) {
      const digits = match[0].replace(/\D/g, '');
      // Card numbers start 2–6; timestamps and ids of 13 digits that pass Luhn by chance are mostly epoch milliseconds.
      if (luhn(digits) && /^[2-6]/.test(digits) && !/^1\d{12}$/.test(digits)) {
        findings.push(`a card-like number: ${match[0]}`);
      }
    }
  }
  return findings;
}
