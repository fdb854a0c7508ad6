/** Client-side rules of spec section 5, shared with the server so that both say the same words. */
export const EMAIL_PATTERN = /^\S+@\S+$/;

/**
 * The one password rule: every new password (sign-up, reset, change, an admin's) in the browser and on the server, and
 * the sign-in form's length check. Stronger than the spec's 6 for reset and change: docs/decisions/2026-11-25-password-rule.md.
 */
export const PASSWORD_MIN = 8;

export const PASSWORD_MAX = 128;

export const authMessages = {
  invalidEmail: 'Invalid email',
  passwordTooShort: `Password must be at least ${PASSWORD_MIN} characters`,
  passwordTooLong: `Password must be at most ${PASSWORD_MAX} characters`,
  needsLowercase: 'Password must contain at least one lowercase letter',
  needsUppercase: 'Password must contain at least one uppercase letter',
  needsNumber: 'Password must contain at least one number',
  needsSpecial: 'Password must contain at least one special character',
  passwordsDoNotMatch: 'Passwords do not match',
  authRequired: 'Authentication required. Please log in to continue.',
  noToken: 'No authentication token available',
  adminRequired: 'Access Denied: administrator rights are required.',
  oauthFailed: 'OAuth authentication failed',
  welcomeBack: 'Welcome back!',
  resetEmailSent: 'Reset email sent!',
  passwordUpdated: 'Password updated!',
  signedOut: 'Signed out',
  signOutFailed: 'Could not sign out: check your connection and try again.',
  /** better-auth's client (a file of its own in the web app) could not be loaded: nothing was sent. */
  authClientUnavailable: 'Could not reach the sign-in service: check your connection and try again.',
} as const;

/** How recent a sign-in must be to change the password with the spec's dialog alone (new password and confirm). */
export const PASSWORD_CHANGE_FRESH_MINUTES = 10;

/** Settings' Change Password dialog, for a sign-in older than that (docs/decisions/2026-11-28-security-fixes-iv.md). */
export const passwordChangeMessages = {
  currentPasswordRequired: `For your security, enter your current password: you signed in more than ${PASSWORD_CHANGE_FRESH_MINUTES} minutes ago.`,
  wrongCurrentPassword: 'Your current password is not correct.',
  codeRequired: 'Enter the 6-digit code from your authenticator app.',
  wrongCode: 'This code is not correct. Enter the current code from your authenticator app.',
  signInAgain: `For your security, sign out and sign in again, then set your password within ${PASSWORD_CHANGE_FRESH_MINUTES} minutes.`,
} as const;

/** The two-factor forms' own words: Settings' set-up and turn-off, and the second step of a sign-in. */
export const twoFactorMessages = {
  passwordRequired: 'Enter your password',
  codeRequired: 'Enter the 6-digit code',
  backupCodeRequired: 'Enter one of your backup codes',
} as const;

/** The shortest backup code the sign-in's second step sends to the auth service (which judges the code itself). */
export const BACKUP_CODE_MIN = 6;

/** The password asked for before two-factor is turned on or off: any but none, the auth service judges it. */
export function enteredPasswordProblem(password: string): string | null {
  return password === '' ? twoFactorMessages.passwordRequired : null;
}

/** An authenticator app's code: six digits. */
export function totpCodeProblem(code: string): string | null {
  return /^\d{6}$/.test(code.trim()) ? null : twoFactorMessages.codeRequired;
}

/** One of the backup codes given when two-factor was set up, instead of the app's code. */
export function backupCodeProblem(code: string): string | null {
  return code.trim().length >= BACKUP_CODE_MIN ? null : twoFactorMessages.backupCodeRequired;
}

/** What a confirmation link's failures say, by better-auth's error code (the /auth/callback page and its API call). */
export const confirmationMessages = {
  INVALID_TOKEN: 'This confirmation link is invalid or was already used.',
  TOKEN_EXPIRED: 'This confirmation link has expired. Sign in and ask for a new one from your dashboard.',
  USER_NOT_FOUND: 'No account matches this link.',
  incomplete: 'The confirmation link is incomplete. Open it again from the e-mail.',
  failed: 'The address could not be confirmed. Please try again.',
  passwordRequired: 'Enter the password you chose when you signed up.',
  wrongPassword:
    'This is not the password this address was signed up with. If you did not sign up twice, someone else may have ' +
    'used your address: sign up again with your own password, then use the link in the newest e-mail.',
} as const;

/**
 * The spec's simple pattern, and an address the auth service takes (its check is zod's e-mail form): an address such as
 * 'a@b' passes the pattern, so the form said nothing and the service answered with its raw '[body.email] Invalid email
 * address'. Every form and the server's auth hook use this one check and say 'Invalid email'. `EMAIL_FORM` is zod's own
 * pattern for `z.email()` (the contract's test holds them equal), written here so that a page checking an address loads
 * no zod.
 */
export const EMAIL_FORM =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
export const isValidEmail = (value: string) => EMAIL_PATTERN.test(value) && EMAIL_FORM.test(value);

/**
 * The password rule's parts in the order they are checked: what the hint under a new-password field says, the sentence
 * a password that breaks it gets, and the check.
 */
export const passwordRules: readonly { hint: string; message: string; isMet: (password: string) => boolean }[] = [
  {
    hint: `At least ${PASSWORD_MIN} characters`,
    message: authMessages.passwordTooShort,
    isMet: (password) => password.length >= PASSWORD_MIN,
  },
  { hint: 'A lowercase letter', message: authMessages.needsLowercase, isMet: (password) => /[a-z]/.test(password) },
  { hint: 'An uppercase letter', message: authMessages.needsUppercase, isMet: (password) => /[A-Z]/.test(password) },
  { hint: 'A number', message: authMessages.needsNumber, isMet: (password) => /[0-9]/.test(password) },
  {
    hint: 'A special character',
    message: authMessages.needsSpecial,
    isMet: (password) => /[^A-Za-z0-9]/.test(password),
  },
];

/** The first part of the password rule a new password breaks, as a sentence, or null when it keeps them all. */
export function passwordStrengthProblem(password: string): string | null {
  if (password.length > PASSWORD_MAX) return authMessages.passwordTooLong;
  return passwordRules.find((rule) => !rule.isMet(password))?.message ?? null;
}
