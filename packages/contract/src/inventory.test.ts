import { describe, expect, it } from 'vitest';
import { parseUploadLines } from './inventory.ts';

describe('IP upload lines', () => {
  it('reads IP:PORT:USERNAME:PASSWORD lines and ignores blank ones', () => {
    expect(parseUploadLines(['203.0.113.5:8000:user:pass', '', '  198.51.100.7:65535:u:p  '])).toEqual({
      ips: [
        { ip: '203.0.113.5', port: 8000, username: 'user', password: 'pass' },
        { ip: '198.51.100.7', port: 65_535, username: 'u', password: 'p' },
      ],
    });
  });

  it('names every bad line, and asks for at least one IP', () => {
    expect(
      parseUploadLines(['1.2.3.4:80:u:p', '1.2.3:80:u:p', '1.2.3.256:80:u:p', '1.2.3.4:0:u:p', '1.2.3.4:80:u:p:x']),
    ).toEqual({
      error: 'Invalid format on lines: 2, 3, 4, 5. Expected format: IP:PORT:USERNAME:PASSWORD',
    });
    expect(parseUploadLines(['', '  '])).toEqual({ error: 'Please enter at least one IP' });
  });
});
