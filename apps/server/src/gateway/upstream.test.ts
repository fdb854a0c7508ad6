import { describe, expect, it } from 'vitest';
import { upstreamUrlFor, upstreamUsername } from './upstream.ts';

const sticky = { country: 'GB', sessionId: 'ab12cd34', durationMinutes: 60, type: 'static' as const };
const rotating = { ...sticky, type: 'dynamic' as const };

describe('upstream username template', () => {
  it('writes the targeting into the default template, with -hard only for static lines', () => {
    const template = '{username}-country-{country}-session-{session}-duration-{duration}[-{hard}]';
    expect(upstreamUsername(template, 'prov', sticky)).toBe('prov-country-gb-session-ab12cd34-duration-60-hard');
    expect(upstreamUsername(template, 'prov', rotating)).toBe('prov-country-gb-session-ab12cd34-duration-60');
  });

  it('fills every placeholder and leaves the provider default for a plain username', () => {
    expect(upstreamUsername('{username}_c_{COUNTRY}_s_{session}_t_{duration}m_{type}', 'p', rotating)).toBe(
      'p_c_GB_s_ab12cd34_t_60m_dynamic',
    );
    expect(upstreamUsername('{username}-country-{country}', 'prov', undefined)).toBe('prov');
  });

  it('keeps the password and host of the upstream URL and encodes the username', () => {
    const url = upstreamUrlFor(
      { url: 'http://pr%40v:s%3Acret@gate.example:7777', usernameTemplate: '{username}-{country}' },
      sticky,
    );
    expect(url).toBe('http://pr%40v-gb:s%3Acret@gate.example:7777/');
  });
});
