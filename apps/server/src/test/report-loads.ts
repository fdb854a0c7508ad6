// Loaded into a process the tests start with NODE_OPTIONS=--import=<this file>: writes the address of every module the
// process loads (ES modules and require alike) to the file REPORT_LOADS_TO, one a line, with the module that asked for
// it after a tab. Tells what a process loaded, for the check that a process without OTEL_EXPORTER_OTLP_ENDPOINT never
// loads OpenTelemetry's SDK.
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const file = process.env.REPORT_LOADS_TO;
if (file) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      appendFileSync(file, `${resolved.url}\t${context.parentURL ?? ''}\n`);
      return resolved;
    },
  });
}
