// zod without `new Function` (see zod-without-eval.ts): loaded, and run, before any form's schemas are built.
import { config } from 'zod/v4/core';

config({ jitless: true });
