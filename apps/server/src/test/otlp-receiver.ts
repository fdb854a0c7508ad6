import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver took: its path, content type and body. */
export interface OtlpExport {
  path: string;
  contentType: string;
  body: Buffer;
}

/** A span of an OTLP/JSON export, with its resource's service.name and its instrumentation scope. */
export interface ReceivedSpan {
  service: string | undefined;
  scope: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** 1 internal, 2 server, 3 client (OTLP's SpanKind). */
  kind: number;
  attributes: Record<string, unknown>;
}

interface JsonAttribute {
  key: string;
  value: Record<string, unknown>;
}

const attributeValue = (value: Record<string, unknown>) => {
  const [inner] = Object.values(value);
  // OTLP/JSON writes 64-bit integers as strings.
  return 'intValue' in value ? Number(inner) : inner;
};
const attributesOf = (list: JsonAttribute[] = []) =>
  Object.fromEntries(list.map((attribute) => [attribute.key, attributeValue(attribute.value)]));

/**
 * A collector's OTLP/HTTP receiver on a free loopback port: it accepts every POST (traces at /v1/traces) and keeps it.
 * `endpoint` is what OTEL_EXPORTER_OTLP_ENDPOINT is set to.
 */
export async function startOtlpReceiver() {
  const exports: OtlpExport[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      exports.push({
        path: request.url ?? '',
        contentType: request.headers['content-type'] ?? '',
        body: Buffer.concat(chunks),
      });
      const json = request.headers['content-type']?.includes('json');
      response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      response.end(json ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    exports,
    /** Every span of the OTLP/JSON trace exports received so far. */
    spans(): ReceivedSpan[] {
      return exports
        .filter((entry) => entry.path === '/v1/traces' && entry.contentType.includes('json'))
        .flatMap((entry) => {
          const body = JSON.parse(entry.body.toString('utf8')) as {
            resourceSpans?: {
              resource?: { attributes?: JsonAttribute[] };
              scopeSpans?: {
                scope?: { name?: string };
                spans?: {
                  traceId: string;
                  spanId: string;
                  parentSpanId?: string;
                  name: string;
                  kind: number;
                  attributes?: JsonAttribute[];
                }[];
              }[];
            }[];
          };
          return (body.resourceSpans ?? []).flatMap((resourceSpans) => {
            const service = attributesOf(resourceSpans.resource?.attributes)['service.name'];
            return (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
              (scopeSpans.spans ?? []).map((span) => ({
                service: typeof service === 'string' ? service : undefined,
                scope: scopeSpans.scope?.name ?? '',
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId || undefined,
                name: span.name,
                kind: span.kind,
                attributes: attributesOf(span.attributes),
              })),
            );
          });
        });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type OtlpReceiver = Awaited<ReturnType<typeof startOtlpReceiver>>;
