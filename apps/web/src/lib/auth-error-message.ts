/**
 * better-auth answers `{ data, error }`; the error's message is the service's own words (spec: shown in a red alert),
 * except its schema check's, which names a field and zod's wording ('[body.email] Invalid email address'): a person
 * reads the caller's sentence instead. The server's hook answers in the forms' words before that check for what a form
 * can send.
 */
export function authErrorMessage(
  error: { message?: string | undefined; status?: number; code?: string | undefined } | null,
  fallback: string,
) {
  if (!error?.message || error.code === 'VALIDATION_ERROR' || /^\[[\w.]+\] /.test(error.message)) return fallback;
  return error.message;
}
