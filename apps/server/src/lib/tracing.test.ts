import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { loadGatewayConfig } from '../gateway/config.ts';
import { tracingWanted } from './tracing.ts';

describe('tracingWanted', () => {
  it('asks for traces when an OTLP endpoint is set (the base one or the traces one), unless the SDK is switched off', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: '' })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBe(false);
    expect(tracingWanted({ OTEL_SERVICE_NAME: 'shop' })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBe(
      false,
    );
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'false' })).toBe(
      true,
    );
  });
});

describe('the OpenTelemetry settings the shop checks', () => {
  it('refuses an endpoint that is not an http(s) URL and a protocol other than OTLP/HTTP, in a sentence', () => {
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' })).toThrow(
      'OTEL_EXPORTER_OTLP_ENDPOINT must be an absolute http:// or https:// URL such as http://otel-collector:4318 (got "localhost:4318").',
    );
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      'OTEL_EXPORTER_OTLP_PROTOCOL must be one of http/protobuf, http/json (got "grpc").',
    );
    // A gateway on its own checks them too.
    expect(() => loadGatewayConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT must be/,
    );
    expect(() =>
      loadConfig({
        NODE_ENV: 'development',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otlp.example.com',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'storefront-eu',
      }),
    ).not.toThrow();
  });
});
