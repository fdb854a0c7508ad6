/** Spec section 5: `IP:PORT:USERNAME:PASSWORD`, the IP four numeric groups, username and password without a colon. */
const UPLOAD_LINE = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3}):(\d{1,5}):([^:\s]+):([^:\s]+)$/;

export interface UploadedIp {
  ip: string;
  port: number;
  username: string;
  password: string;
}

export const inventoryMessages = {
  emptyUpload: 'Please enter at least one IP',
  invalidLines: (lines: number[]) =>
    `Invalid format on lines: ${lines.join(', ')}. Expected format: IP:PORT:USERNAME:PASSWORD`,
  uploadFailed: 'Failed to upload PK1 IPs',
} as const;

/**
 * Reads upload (or swap) lines, blank lines ignored; answers the IPs or the spec's message naming the bad lines (1-based).
 * An upload with no line says 'Please enter at least one IP'; a swap passes its own 'Please enter at least one endpoint'.
 */
export function parseUploadLines(
  lines: readonly string[],
  emptyMessage: string = inventoryMessages.emptyUpload,
): { ips: UploadedIp[] } | { error: string } {
  const ips: UploadedIp[] = [];
  const bad: number[] = [];
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    const match = UPLOAD_LINE.exec(line);
    const octets = match ? match.slice(1, 5).map(Number) : [];
    const port = match ? Number(match[5]) : 0;
    if (!match || octets.some((octet) => octet > 255) || port < 1 || port > 65_535) {
      bad.push(index + 1);
      return;
    }
    ips.push({ ip: octets.join('.'), port, username: match[6] ?? '', password: match[7] ?? '' });
  });
  if (bad.length > 0) return { error: inventoryMessages.invalidLines(bad) };
  if (ips.length === 0) return { error: emptyMessage };
  return { ips };
}

/** At most a /16 (65,536 lines) in one upload. */
export const UPLOAD_MAX_LINES = 65_536;
