import { z } from 'zod';

/** Client-side rules of spec section 5, shared with the server so that both say the same words. */
export const EMAIL_PATTERN = /^\S+@\S+$/;
export const SIGNUP_PASSWORD_MIN = 8;
export const PASSWORD_MIN = 6;

export const authMessages = {
  invalidEmail: 'Invalid email',
  passwordTooShort: `Password must be at least ${PASSWORD_MIN} characters`,
  signupPasswordTooShort: `Password must be at least ${SIGNUP_PASSWORD_MIN} characters`,
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
} as const;

/** What a confirmation link's failures say, by better-auth's error code (the /auth/callback page and its API call). */
export const confirmationMessages = {
  INVALID_TOKEN: 'This confirmation link is invalid or was already used.',
  TOKEN_EXPIRED: 'This confirmation link has expired. Sign in and ask for a new one from your dashboard.',
  USER_NOT_FOUND: 'No account matches this link.',
  incomplete: 'The confirmation link is incomplete. Open it again from the e-mail.',
  failed: 'The address could not be confirmed. Please try again.',
} as const;

export const isValidEmail = (value: string) => EMAIL_PATTERN.test(value);

/** The sign-up rule: length first, then lower case, upper case, a number and a special character, in that order. */
export function passwordStrengthProblem(password: string): string | null {
  if (password.length < SIGNUP_PASSWORD_MIN) return authMessages.signupPasswordTooShort;
  if (!/[a-z]/.test(password)) return authMessages.needsLowercase;
  if (!/[A-Z]/.test(password)) return authMessages.needsUppercase;
  if (!/[0-9]/.test(password)) return authMessages.needsNumber;
  if (!/[^A-Za-z0-9]/.test(password)) return authMessages.needsSpecial;
  return null;
}

export const userRoleSchema = z.enum(['user', 'admin']);
export type UserRole = z.infer<typeof userRoleSchema>;

/** GET /api/user/auth (spec section 7). */
export const authCheckResponseSchema = z.object({
  authenticated: z.boolean(),
  user: z
    .object({
      id: z.string(),
      email: z.string(),
      role: userRoleSchema,
      createdAt: z.string().nullable(),
      emailVerified: z.boolean(),
      twoFactorEnabled: z.boolean(),
    })
    .nullable(),
});
export type AuthCheckResponse = z.infer<typeof authCheckResponseSchema>;

/**
 * POST /api/user/password: the Settings dialog's new password (spec section 2 'Settings'). The server holds every new
 * password to the sign-up rules, whatever the form's own 6-character check lets through.
 */
export const changePasswordRequestSchema = z.object({
  newPassword: z
    .string()
    .max(128, 'Password must be at most 128 characters')
    .superRefine((value, ctx) => {
      const problem = passwordStrengthProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
});
