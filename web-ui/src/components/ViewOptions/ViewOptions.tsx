import './ViewOptions.css';

export interface ViewOptionsState {
  colour: 'measured' | 'reserved';
  drops: boolean;
  ecn: boolean;
  elephants: boolean;
}

export const defaultViewOptions: ViewOptionsState = { colour: 'measured', drops: true, ecn: false, elephants: true };

interface Props {
  value: ViewOptionsState;
  onChange: (v: ViewOptionsState) => void;
}

/** What the link colours mean (measured load or planned reservations) and which marks are drawn. */
export function ViewOptions({ value, onChange }: Props) {
  const toggle = (key: 'drops' | 'ecn' | 'elephants', label: string) => (
    <label>
      <input
        type="checkbox"
        checked={value[key]}
        onChange={(e) => {
          onChange({ ...value, [key]: e.target.checked });
        }}
      />{' '}
      {label}
    </label>
  );
  return (
    <fieldset className="view-options">
      <legend>Links</legend>
      {(['measured', 'reserved'] as const).map((c) => (
        <label key={c}>
          <input
            type="radio"
            name="link-colour"
            value={c}
            checked={value.colour === c}
            onChange={() => {
              onChange({ ...value, colour: c });
            }}
          />{' '}
          {c === 'measured' ? 'measured load' : 'reservations'}
        </label>
      ))}
      {toggle('drops', 'drops')}
      {toggle('ecn', 'ECN')}
      {toggle('elephants', 'elephant counts')}
    </fieldset>
  );
}
