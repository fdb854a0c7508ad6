import { Button, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { apiKeyMessages, type CreatedApiKey, createApiKeyRequestSchema } from '@storefront/contract';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { useCreateApiKey } from '../api/api-keys-api.ts';

/** The server's own rule and words (the contract's schema): a name too long is said to be so, never cut to fit. */
const validate = schemaResolver(createApiKeyRequestSchema, { sync: true });

/** The Create an API key dialog's form; split off with its schema, loaded when the dialog first opens. */
export function CreateApiKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const create = useCreateApiKey();
  const form = useForm({ initialValues: { name: '' }, validate, validateInputOnChange: true });
  // Create Key pressed: from then on the name's problem is said as it is typed.
  const [pressed, setPressed] = useState(false);
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    setPressed(true);
    form.onSubmit(({ name }) => create.mutate(name, { onSuccess: onCreated }))(event);
  };
  const problem = form.errors.name;
  // Too long is said as soon as it is (a pasted name); a missing name once Create Key is pressed.
  const shown = pressed || problem === apiKeyMessages.nameTooLong ? problem : undefined;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormError message={create.error?.message ?? null} />
        <TextInput
          label="Name"
          description="What will use it, so you know which key to revoke later."
          placeholder="Scraper on server 2"
          data-autofocus
          {...form.getInputProps('name')}
          error={shown}
        />
        <Button type="submit" loading={create.isPending}>
          Create Key
        </Button>
      </Stack>
    </form>
  );
}
