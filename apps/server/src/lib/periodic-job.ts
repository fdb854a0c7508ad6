/**
 * The periodic job's row in job_state: its runs record there (modules/jobs/job-state.ts), the alert check and the
 * metrics read it by this name.
 */
export const PERIODIC_JOB = 'periodic';
