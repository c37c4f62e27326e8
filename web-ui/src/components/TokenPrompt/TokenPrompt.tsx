import { useState, type SyntheticEvent } from 'react';
import './TokenPrompt.css';

interface Props {
  onSubmit: (token: string) => void;
}

/** Asks for the operator token; it is kept for this browser session only (sessionStorage). */
export function TokenPrompt({ onSubmit }: Props) {
  const [value, setValue] = useState('');
  const submit = (e: SyntheticEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (value.trim() !== '') onSubmit(value.trim());
  };
  return (
    <form className="token-prompt" onSubmit={submit} aria-label="Operator sign-in">
      <label htmlFor="operator-token">Operator token (jobs, load, events)</label>
      <input
        id="operator-token"
        type="password"
        autoComplete="off"
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
        }}
      />
      <button type="submit" disabled={value.trim() === ''}>
        Sign in
      </button>
    </form>
  );
}
