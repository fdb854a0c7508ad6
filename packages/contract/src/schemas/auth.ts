// The zod schemas of auth.ts: what the server validates and serialises, and the API reference; the web app takes their
// types only, so its pages load no zod (docs/decisions/2026-11-27-schemas-apart.md).
import { z } from 'zod';
import {
  authMessages,
  confirmationMessages,
  PASSWORD_MAX,
  passwordChangeMessages,
  passwordStrengthProblem,
} from '../auth.ts';

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
 * POST /api/user/password: the Settings dialog's new password (spec section 2 'Settings'), held to the password rule;
 * with a sign-in older than PASSWORD_CHANGE_FRESH_MINUTES, the current password too, and the authenticator's code when
 * two-factor is on.
 */
export const changePasswordRequestSchema = z.object({
  newPassword: z.string().superRefine((value, ctx) => {
    const problem = passwordStrengthProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  currentPassword: z.string().max(PASSWORD_MAX, authMessages.passwordTooLong).optional(),
  code: z.string().max(20, passwordChangeMessages.wrongCode).optional(),
});

/** POST /api/user/password's answer. */
export const passwordChangedSchema = z.object({ message: z.string() });

/**
 * POST /api/auth/confirm-email: the confirmation page posts the mailed token back with the password the account was
 * signed up with (a stranger who signed up first with the address cannot hand the owner an account whose password
 * the stranger knows). A missing, empty or overlong token is an incomplete link, in the page's own words.
 */
export const confirmEmailRequestSchema = z.object(
  {
    token: z
      .string({ error: confirmationMessages.incomplete })
      .min(1, confirmationMessages.incomplete)
      .max(4000, confirmationMessages.incomplete),
    password: z
      .string({ error: confirmationMessages.passwordRequired })
      .min(1, confirmationMessages.passwordRequired)
      .max(PASSWORD_MAX, authMessages.passwordTooLong),
  },
  { error: confirmationMessages.incomplete },
);

/** What it answers once the address is confirmed (with the new session's cookie). */
export const confirmEmailResponseSchema = z.object({ status: z.literal(true) });
