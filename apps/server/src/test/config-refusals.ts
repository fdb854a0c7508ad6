import { expect } from 'vitest';
import { ConfigError } from '../config-shared.ts';

/** The sentences a configuration reader refuses an environment with (none when it accepts it). */
export function refusals(read: () => unknown): string[] {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  return [];
}
