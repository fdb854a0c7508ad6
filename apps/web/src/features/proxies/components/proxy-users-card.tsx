import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Code,
  Group,
  Loader,
  Menu,
  Modal,
  Progress,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  describeAllowance,
  formatGb,
  formatPercent,
  type OrderUsage,
  PROXY_USERS_MAX,
  type ProxyUser,
  proxyUserMessages,
} from '@storefront/contract';
import {
  IconDotsVertical,
  IconEye,
  IconHistory,
  IconKey,
  IconPencil,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { CopyValueButton } from '../../../components/copy-value-button.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { showToast } from '../../../lib/toasts.ts';
import { useDeleteProxyUser, useProxyUserPassword, useProxyUsers, useUpdateProxyUser } from '../api/proxy-users-api.ts';
import { usageColor } from '../proxies-model.ts';

// The dialogs' forms check the contract's schemas: a chunk of their own with zod, loaded when a dialog first opens.
const ProxyUserForm = lazy(async () => ({ default: (await import('./proxy-user-forms.tsx')).ProxyUserForm }));
const NewPasswordForm = lazy(async () => ({ default: (await import('./proxy-user-forms.tsx')).NewPasswordForm }));
const AllowanceHistory = lazy(async () => ({ default: (await import('./allowance-history.tsx')).AllowanceHistory }));

type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; user: ProxyUser }
  | { kind: 'new-password'; user: ProxyUser }
  | { kind: 'password'; user: Pick<ProxyUser, 'id' | 'name' | 'username'>; password?: string; fresh: boolean }
  | { kind: 'delete'; user: ProxyUser }
  | { kind: 'history'; user: ProxyUser };

const loading = <Loader size="sm" aria-label="Loading the form" />;

/** A proxy user's password: the one just set, or asked for now (never kept in the list). */
function PasswordView({ dialog, onClose }: { dialog: Extract<Dialog, { kind: 'password' }>; onClose: () => void }) {
  const asked = useProxyUserPassword(dialog.password === undefined ? dialog.user.id : null);
  const password = dialog.password ?? asked.data?.password;
  return (
    <Stack gap="md">
      {dialog.fresh && (
        <Alert color="yellow" variant="light">
          Copy it now: it is shown again only when you ask for it.
        </Alert>
      )}
      <FormError message={asked.error?.message ?? null} />
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          Username
        </Text>
        <Code block style={{ wordBreak: 'break-all' }}>
          {dialog.user.username}
        </Code>
      </Stack>
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          Password
        </Text>
        {password ? (
          <Code block data-testid="proxy-user-password" style={{ wordBreak: 'break-all' }}>
            {password}
          </Code>
        ) : (
          <Loader size="sm" aria-label="Loading the password" />
        )}
      </Stack>
      <Group justify="space-between">
        {password ? <CopyValueButton value={password} label="Copy password" /> : <span />}
        <Button onClick={onClose}>Done</Button>
      </Group>
    </Stack>
  );
}

function UsageOf({ user }: { user: ProxyUser }) {
  const limit = user.allowance.limitInKb;
  if (user.allowance.type === 'none' || limit === null)
    return (
      <Text size="xs" c="dimmed">
        {formatGb(user.usedInKb)} used · draws on your balance
      </Text>
    );
  const percent = limit > 0 ? Math.min(100, (user.periodUsedInKb / limit) * 100) : 100;
  const period = user.allowance.type === 'monthly' ? 'this month' : 'in total';
  return (
    <Stack gap={4}>
      <Progress
        value={percent}
        color={usageColor(percent)}
        size="md"
        aria-label={`${user.name}: ${formatPercent(percent)} of its allowance used`}
      />
      <Text size="xs" c="dimmed">
        {formatGb(user.periodUsedInKb)} of {formatGb(limit)} used {period}
      </Text>
    </Stack>
  );
}

function ProxyUserRow({
  user,
  open,
  onPause,
}: {
  user: ProxyUser;
  open: (dialog: Dialog) => void;
  onPause: () => void;
}) {
  return (
    <Group
      justify="space-between"
      align="flex-start"
      wrap="nowrap"
      py="sm"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
      data-testid="proxy-user-row"
    >
      <Stack gap={6} style={{ minWidth: 0, flex: 1 }}>
        <Group gap="xs">
          <Text fw={600} style={{ wordBreak: 'break-word' }}>
            {user.name}
          </Text>
          {user.paused && (
            <Badge color="orange" variant="light">
              Paused
            </Badge>
          )}
        </Group>
        <Code style={{ alignSelf: 'flex-start', wordBreak: 'break-all' }}>{user.username}</Code>
        <Text size="sm">
          {describeAllowance({
            allowance: user.allowance.type,
            allowanceInKb: user.allowance.limitInKb,
            resetDay: user.allowance.resetDay,
          })}
        </Text>
        <UsageOf user={user} />
        {user.note && (
          <Text size="xs" c="dimmed" style={{ wordBreak: 'break-word', whiteSpace: 'pre-wrap' }}>
            {user.note}
          </Text>
        )}
      </Stack>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" size="lg" aria-label={`Actions for ${user.name}`}>
            <IconDotsVertical size={18} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconPencil size={16} aria-hidden />} onClick={() => open({ kind: 'edit', user })}>
            Edit
          </Menu.Item>
          <Menu.Item
            leftSection={<IconEye size={16} aria-hidden />}
            onClick={() => open({ kind: 'password', user, fresh: false })}
          >
            Show Password
          </Menu.Item>
          <Menu.Item
            leftSection={<IconKey size={16} aria-hidden />}
            onClick={() => open({ kind: 'new-password', user })}
          >
            New Password
          </Menu.Item>
          <Menu.Item
            leftSection={
              user.paused ? <IconPlayerPlay size={16} aria-hidden /> : <IconPlayerPause size={16} aria-hidden />
            }
            onClick={onPause}
          >
            {user.paused ? 'Resume' : 'Pause'}
          </Menu.Item>
          <Menu.Item
            leftSection={<IconHistory size={16} aria-hidden />}
            onClick={() => open({ kind: 'history', user })}
          >
            Allowance History
          </Menu.Item>
          <Menu.Item
            color="red"
            leftSection={<IconTrash size={16} aria-hidden />}
            onClick={() => open({ kind: 'delete', user })}
          >
            Delete
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}

/**
 * Proxy Users (Residential tab): the main user (the account's own credentials) first, then each proxy user with its
 * allowance, its use this period, paused or not, and its note; create, edit, passwords, pause, history and delete.
 */
export function ProxyUsersCard({ account }: { account: OrderUsage }) {
  const users = useProxyUsers(true);
  const update = useUpdateProxyUser();
  const remove = useDeleteProxyUser();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);
  const list = users.data?.proxyUsers ?? [];
  const full = list.length >= PROXY_USERS_MAX;
  const togglePause = (user: ProxyUser) =>
    update.mutate(
      { id: user.id, body: { paused: !user.paused } },
      {
        onSuccess: (saved) =>
          showToast({
            color: 'green',
            message: saved.paused ? proxyUserMessages.paused : proxyUserMessages.resumed,
          }),
        onError: (error) => showToast({ color: 'red', message: error.message }),
      },
    );

  const title =
    dialog === null
      ? ''
      : dialog.kind === 'create'
        ? 'Create a proxy user'
        : dialog.kind === 'edit'
          ? `Edit ${dialog.user.name}`
          : dialog.kind === 'new-password'
            ? `New password for ${dialog.user.name}`
            : dialog.kind === 'password'
              ? `Password of ${dialog.user.name}`
              : dialog.kind === 'delete'
                ? `Delete ${dialog.user.name}?`
                : `Allowance history of ${dialog.user.name}`;

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="proxy-users-title">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Stack gap={4} maw={560}>
            <Group gap="xs">
              <Title order={2} size="h5" id="proxy-users-title">
                Proxy Users
              </Title>
              {users.isSuccess && (
                <Badge color={full ? 'orange' : 'gray'} variant="light">
                  {list.length} of {PROXY_USERS_MAX}
                </Badge>
              )}
            </Group>
            <Text size="sm" c="dimmed">
              Credentials of their own for your team or clients, on your residential data, each with an optional cap.
            </Text>
          </Stack>
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            disabled={full || !users.isSuccess}
            onClick={() => setDialog({ kind: 'create' })}
          >
            Create Proxy User
          </Button>
        </Group>
        {full && (
          <Text size="sm" c="orange">
            {proxyUserMessages.limitReached}
          </Text>
        )}
        <Group
          justify="space-between"
          wrap="nowrap"
          py="sm"
          style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
        >
          <Stack gap={6} style={{ minWidth: 0 }}>
            <Group gap="xs">
              <Text fw={600}>Main user</Text>
              <Badge variant="light">Your account</Badge>
            </Group>
            <Code style={{ alignSelf: 'flex-start', wordBreak: 'break-all' }}>{account.username}</Code>
            <Text size="xs" c="dimmed">
              Your own credentials above: no cap but your balance (
              {formatGb(Math.max(0, account.totalInKb - account.usedInKb))} left).
            </Text>
          </Stack>
        </Group>
        {users.isPending ? (
          <Text c="dimmed" size="sm">
            Loading...
          </Text>
        ) : users.isError ? (
          <FormError message={users.error.message} />
        ) : (
          list.map((user) => (
            <ProxyUserRow key={user.id} user={user} open={setDialog} onPause={() => togglePause(user)} />
          ))
        )}
      </Stack>

      <Modal
        opened={dialog !== null}
        onClose={close}
        title={title}
        centered
        size={dialog?.kind === 'history' ? 'lg' : 'md'}
        closeOnClickOutside={dialog?.kind !== 'password'}
      >
        <Suspense fallback={loading}>
          {dialog?.kind === 'create' && (
            <ProxyUserForm
              user={null}
              onCreated={(created) => {
                showToast({ color: 'green', message: proxyUserMessages.created });
                setDialog({ kind: 'password', user: created, password: created.password, fresh: true });
              }}
              onSaved={close}
            />
          )}
          {dialog?.kind === 'edit' && (
            <ProxyUserForm
              user={dialog.user}
              onCreated={close}
              onSaved={() => {
                showToast({ color: 'green', message: proxyUserMessages.saved });
                close();
              }}
            />
          )}
          {dialog?.kind === 'new-password' && (
            <NewPasswordForm
              user={dialog.user}
              onDone={({ password }) => setDialog({ kind: 'password', user: dialog.user, password, fresh: true })}
            />
          )}
          {dialog?.kind === 'history' && <AllowanceHistory user={dialog.user} />}
        </Suspense>
        {dialog?.kind === 'password' && <PasswordView dialog={dialog} onClose={close} />}
        {dialog?.kind === 'delete' && (
          <Stack gap="md">
            <FormError message={remove.error?.message ?? null} />
            <Text size="sm">
              <strong>{dialog.user.name}</strong> stops working at once and its authorised IPs are freed. Its usage so
              far stays under its name.
            </Text>
            <Group justify="flex-end">
              <Button
                variant="default"
                onClick={() => {
                  remove.reset();
                  close();
                }}
              >
                Keep Proxy User
              </Button>
              <Button
                color="red"
                loading={remove.isPending}
                onClick={() =>
                  remove.mutate(dialog.user.id, {
                    onSuccess: () => {
                      close();
                      showToast({ color: 'green', message: proxyUserMessages.deleted });
                    },
                  })
                }
              >
                Delete Proxy User
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Card>
  );
}
