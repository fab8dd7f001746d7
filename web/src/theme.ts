/** The colour scheme: the daemon's `theme` setting (system | dark | light), applied to <html>. */
import { useCallback, useEffect, useState } from 'react';
import { api } from './api.ts';

export type ThemeSetting = 'system' | 'dark' | 'light';

function systemDark(): boolean {
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
}

export function useTheme(): { setting: ThemeSetting; effective: 'dark' | 'light'; cycle(): void } {
  const [setting, setSetting] = useState<ThemeSetting>('system');
  const [dark, setDark] = useState(systemDark());
  useEffect(() => {
    api<{ settings: { theme?: ThemeSetting } }>('GET', '/api/settings')
      .then((r) => r.settings.theme && setSetting(r.settings.theme))
      .catch(() => {});
    const mq = window.matchMedia?.('(prefers-color-scheme: dark)');
    const on = () => setDark(mq.matches);
    mq?.addEventListener('change', on);
    return () => mq?.removeEventListener('change', on);
  }, []);
  const effective = setting === 'system' ? (dark ? 'dark' : 'light') : setting;
  useEffect(() => {
    document.documentElement.dataset.theme = effective;
  }, [effective]);
  const cycle = useCallback(() => {
    const next: ThemeSetting = setting === 'system' ? 'dark' : setting === 'dark' ? 'light' : 'system';
    setSetting(next);
    void api('POST', '/api/settings', { theme: next }).catch(() => {});
  }, [setting]);
  return { setting, effective, cycle };
}
