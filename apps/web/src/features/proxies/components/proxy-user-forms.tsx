import {
  Button,
  Group,
  MultiSelect,
  NumberInput,
  PasswordInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  COUNTRY_OPTIONS,
  type CreatedProxyUser,
  createProxyUserRequestSchema,
  KB_PER_GB,
  newProxyUserPasswordRequestSchema,
  PROXY_USER_IPS_MAX,
  PROXY_USER_MAX_CONNECTIONS,
  PROXY_USER_RESET_DAY_MAX,
  type ProxyUser,
  type ProxyUserAllowanceType,
  type ProxyUserPassword,
  updateProxyUserRequestSchema,
} from '@storefront/contract';
import { useState } from 'react';
import type { z } from 'zod';
import { FormError } from '../../../components/form-error.tsx';
import { LIST_IN_MAIN } from '../../../components/list-in-main.ts';
import { useCreateProxyUser, useNewProxyUserPassword, useUpdateProxyUser } from '../api/proxy-users-api.ts';

const countries = COUNTRY_OPTIONS.map((country) => ({ value: country.id, label: `${country.name} (${country.id})` }));
const resetDays = Array.from({ length: PROXY_USER_RESET_DAY_MAX }, (_, i) => String(i + 1));

interface Values {
  name: string;
  passwordMode: 'generated' | 'chosen';
  password: string;
  note: string;
  allowance: ProxyUserAllowanceType;
  limitGb: number | string;
  resetDay: string;
  countries: string[];
  maxConnections: number | string;
  ips: string;
}

/** The request the form's values make: GB to KB (1 GB = 1024 × 1000 KB), one IP a line, blanks as none. */
function requestOf(values: Values, withPassword: boolean) {
  const limitInKb = typeof values.limitGb === 'number' ? Math.round(values.limitGb * KB_PER_GB) : null;
  return {
    name: values.name.trim(),
    ...(withPassword && values.passwordMode === 'chosen' && { password: values.password }),
    note: values.note.trim() === '' ? null : values.note,
    allowance:
      values.allowance === 'none'
        ? { type: 'none' as const }
        : values.allowance === 'total'
          ? { type: 'total' as const, limitInKb }
          : { type: 'monthly' as const, limitInKb, resetDay: Number(values.resetDay) || null },
    countries: values.countries,
    maxConnections: typeof values.maxConnections === 'number' ? values.maxConnections : null,
    authorizedIps: values.ips
      .split(/[\s,]+/)
      .map((ip) => ip.trim())
      .filter(Boolean),
  };
}

/** Where each part of the request is entered: the schema's problems are said under their field. */
const FIELD_OF: Record<string, keyof Values> = {
  name: 'name',
  password: 'password',
  note: 'note',
  allowance: 'allowance',
  'allowance.type': 'allowance',
  'allowance.limitInKb': 'limitGb',
  'allowance.resetDay': 'resetDay',
  countries: 'countries',
  maxConnections: 'maxConnections',
  authorizedIps: 'ips',
};

/** Runs the contract's schema on the request the values make, and puts each problem under its field. */
function checkWith(schema: z.ZodType, withPassword: boolean) {
  return (values: Values) => {
    const parsed = schema.safeParse(requestOf(values, withPassword));
    const errors: Partial<Record<keyof Values, string>> = {};
    for (const issue of parsed.error?.issues ?? []) {
      const path = issue.path.map(String);
      const field = FIELD_OF[path.join('.')] ?? FIELD_OF[path.slice(0, 2).join('.')] ?? FIELD_OF[path[0] ?? ''];
      if (field && !errors[field]) errors[field] = issue.message;
    }
    return errors;
  };
}

const validateCreate = checkWith(createProxyUserRequestSchema, true);
const validateUpdate = checkWith(updateProxyUserRequestSchema, false);

function valuesOf(user: ProxyUser | null): Values {
  return {
    name: user?.name ?? '',
    passwordMode: 'generated',
    password: '',
    note: user?.note ?? '',
    allowance: user?.allowance.type ?? 'none',
    limitGb: user?.allowance.limitInKb != null ? user.allowance.limitInKb / KB_PER_GB : '',
    resetDay: String(user?.allowance.resetDay ?? 1),
    countries: user?.countries ?? [],
    maxConnections: user?.maxConnections ?? '',
    ips: (user?.authorizedIps ?? []).join('\n'),
  };
}

/**
 * Creating a proxy user (name, password generated or chosen, note, allowance, countries, connection limit, IPs) or
 * changing one (all but the password); checked with the contract's schema, loaded with this chunk.
 */
export function ProxyUserForm({
  user,
  onCreated,
  onSaved,
}: {
  user: ProxyUser | null;
  onCreated: (created: CreatedProxyUser) => void;
  onSaved: (saved: ProxyUser) => void;
}) {
  const create = useCreateProxyUser();
  const update = useUpdateProxyUser();
  const editing = user !== null;
  const form = useForm<Values>({ initialValues: valuesOf(user), validate: editing ? validateUpdate : validateCreate });
  const pending = create.isPending || update.isPending;
  const error = (editing ? update.error : create.error)?.message ?? null;
  const submit = form.onSubmit((values) => {
    const body = requestOf(values, !editing);
    if (user) update.mutate({ id: user.id, body }, { onSuccess: onSaved });
    else create.mutate(body, { onSuccess: onCreated });
  });
  const capped = form.values.allowance !== 'none';

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormError message={error} />
        <TextInput
          label="Name"
          description="Lower-case letters and digits, up to 24: part of its username."
          data-autofocus
          autoComplete="off"
          {...form.getInputProps('name')}
        />
        {!editing && (
          <Stack gap={6}>
            <Text size="sm" fw={500} id="proxy-user-password-mode">
              Password
            </Text>
            <SegmentedControl
              aria-labelledby="proxy-user-password-mode"
              data={[
                { value: 'generated', label: 'Generate one' },
                { value: 'chosen', label: 'Choose one' },
              ]}
              {...form.getInputProps('passwordMode')}
            />
            {form.values.passwordMode === 'chosen' && (
              <PasswordInput
                label="Chosen password"
                description="8 to 32 letters and digits."
                autoComplete="new-password"
                {...form.getInputProps('password')}
              />
            )}
          </Stack>
        )}
        <Textarea
          label="Note"
          description="For you only; optional."
          autosize
          minRows={1}
          {...form.getInputProps('note')}
        />
        <Stack gap={6}>
          <Text size="sm" fw={500} id="proxy-user-allowance">
            Allowance
          </Text>
          <SegmentedControl
            aria-labelledby="proxy-user-allowance"
            data={[
              { value: 'none', label: 'No cap' },
              { value: 'total', label: 'Total' },
              { value: 'monthly', label: 'Monthly' },
            ]}
            {...form.getInputProps('allowance')}
          />
          {form.errors.allowance && (
            <Text size="xs" c="red">
              {form.errors.allowance}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {capped
              ? 'It stops at its cap; your balance stays the limit for all users together.'
              : 'It draws on your balance with no cap of its own.'}
          </Text>
        </Stack>
        {capped && (
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <NumberInput
              label="Cap in GB"
              min={0}
              decimalScale={3}
              allowNegative={false}
              {...form.getInputProps('limitGb')}
            />
            {form.values.allowance === 'monthly' && (
              <Select
                label="Starts again on day"
                data={resetDays}
                allowDeselect={false}
                comboboxProps={LIST_IN_MAIN}
                {...form.getInputProps('resetDay')}
              />
            )}
          </SimpleGrid>
        )}
        <MultiSelect
          label="Countries"
          description="Leave empty for every country."
          data={countries}
          searchable
          hidePickedOptions
          maxDropdownHeight={240}
          comboboxProps={LIST_IN_MAIN}
          {...form.getInputProps('countries')}
        />
        <NumberInput
          label="Simultaneous connections"
          description={`1 to ${PROXY_USER_MAX_CONNECTIONS.toLocaleString('en-US')}; leave empty for no limit.`}
          min={1}
          max={PROXY_USER_MAX_CONNECTIONS}
          allowDecimal={false}
          allowNegative={false}
          {...form.getInputProps('maxConnections')}
        />
        <Textarea
          label="Authorised IPs"
          description={`Up to ${PROXY_USER_IPS_MAX}, one a line: connections from them need no password.`}
          autosize
          minRows={2}
          {...form.getInputProps('ips')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={pending}>
            {editing ? 'Save' : 'Create Proxy User'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

const validatePassword = (values: { mode: 'generated' | 'chosen'; password: string }) => {
  const parsed = newProxyUserPasswordRequestSchema.safeParse(
    values.mode === 'chosen' ? { password: values.password } : {},
  );
  return { password: parsed.error?.issues[0]?.message };
};

/** A new password for a proxy user, generated or chosen; the answer is shown once by the card. */
export function NewPasswordForm({ user, onDone }: { user: ProxyUser; onDone: (answer: ProxyUserPassword) => void }) {
  const change = useNewProxyUserPassword();
  const [mode, setMode] = useState<'generated' | 'chosen'>('generated');
  const form = useForm({
    initialValues: { mode: 'generated' as 'generated' | 'chosen', password: '' },
    validate: validatePassword,
  });
  return (
    <form
      onSubmit={form.onSubmit((values) =>
        change.mutate(
          { id: user.id, body: values.mode === 'chosen' ? { password: values.password } : {} },
          { onSuccess: onDone },
        ),
      )}
      noValidate
    >
      <Stack gap="md">
        <FormError message={change.error?.message ?? null} />
        <Text size="sm">
          The old password of <strong>{user.name}</strong> stops working within a few seconds.
        </Text>
        <SegmentedControl
          aria-label="New password"
          data={[
            { value: 'generated', label: 'Generate one' },
            { value: 'chosen', label: 'Choose one' },
          ]}
          value={mode}
          onChange={(value) => {
            const next = value === 'chosen' ? 'chosen' : 'generated';
            setMode(next);
            form.setFieldValue('mode', next);
          }}
        />
        {mode === 'chosen' && (
          <PasswordInput
            label="Chosen password"
            description="8 to 32 letters and digits."
            autoComplete="new-password"
            data-autofocus
            {...form.getInputProps('password')}
          />
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={change.isPending}>
            Set New Password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
