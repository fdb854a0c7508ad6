import { Alert, Text } from '@mantine/core';
import { COUNTRY_OPTIONS, type ConnectionTest } from '@storefront/contract';

const countryName = (code: string) => COUNTRY_OPTIONS.find((country) => country.id === code)?.name ?? code;

/** What 'Test connection' came to: where the request came out and how long it took, or why it did not. */
export function ConnectionTestResult({ result, error }: { result?: ConnectionTest; error?: string }) {
  if (error !== undefined) {
    return (
      <Alert color="red" title="The test could not run" role="status">
        {error}
      </Alert>
    );
  }
  if (!result) return null;
  if (!result.ok) {
    return (
      <Alert color="red" title="The gateway did not carry the test" role="status">
        <Text size="sm">{result.reason}</Text>
        <Text size="xs" c="dimmed" mt={4}>
          Answered in {result.ms.toLocaleString('en-US')} ms
        </Text>
      </Alert>
    );
  }
  return (
    <Alert color="green" title="Connected" role="status">
      <Text size="sm">
        Exit address <strong>{result.exitAddress}</strong>
        {result.country ? ` in ${countryName(result.country)} (${result.country})` : ', country not known'}, in{' '}
        {result.ms.toLocaleString('en-US')} ms.
      </Text>
    </Alert>
  );
}
