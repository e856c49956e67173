/**
 * Decides from a key's name (`DB_PASSWORD`, `clientSecret`, `x-api-key`, `AccountKey`,
 * `--token`) whether its value is a credential. Names are split into words (snake, kebab, dotted,
 * camelCase) and the last words decide, so `secretName`, `tokenizer`, `max_tokens`, `cache_key`
 * and `private_key_id` are not secret keys while `aws_secret_access_key` and `_authToken` are.
 *
 * `strong`: any value is a secret. `weak` (`auth`, `credentials`, `signature`, `pass`): words that
 * also name settings or appear in prose, so only a value that looks like a secret is one.
 */
export type SecretKeyStrength = 'strong' | 'weak';

const STRONG_LAST = new Set([
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'apikey',
  'sig',
  'sas',
  'privatekey',
  'secretkey',
  'accountkey',
  'dockerconfigjson',
  'dockercfg',
  // the same words in the languages key names are written in (`пароль=`, `passwort:`, `"contraseña"`, `密码=`)
  'passwort',
  'kennwort',
  'contraseña',
  'contrasena',
  'senha',
  'wachtwoord',
  'hasło',
  'haslo',
  'lösenord',
  'losenord',
  'passord',
  'adgangskode',
  'salasana',
  'jelszó',
  'heslo',
  'geslo',
  'şifre',
  'пароль',
  'лозинка',
  'гасло',
  'токен',
  'секрет',
  '密码',
  '密碼',
  'パスワード',
  '비밀번호',
]);
const WEAK_LAST = new Set(['auth', 'credential', 'credentials', 'signature', 'pass', 'pwd', 'parola', 'clave']);
/** Secret words written as several words (`mot_de_passe`, `motDePasse`). */
const STRONG_PHRASES = ['mot de passe', 'mot passe', 'mật khẩu'];
const STRONG_PAIRS = new Set([
  'api key',
  'access key',
  'account key',
  'private key',
  'secret key',
  'session key',
  'master key',
  'encryption key',
  'signing key',
  'auth key',
  'license key',
  'app key',
]);
/** Words of a name ending in a secret word that are still not secrets. */
const NOT_SECRET_BEFORE_TOKEN = new Set([
  'pad',
  'eos',
  'bos',
  'unk',
  'sep',
  'cls',
  'mask',
  'special',
  'max',
  'min',
  'num',
  'total',
  'new',
  'prompt',
  'completion',
  'input',
  'output',
  'first',
  'last',
  'next',
  'start',
  'end',
  'csrf',
]);
/** Single lower-case words that end in a secret word (`pgpassword`, `clientsecret`, `authtoken`). */
const GLUED_SUFFIX = /(password|passwd|passwort|kennwort|secret|apikey|authtoken|accesstoken|privatekey|secretkey)$/;

export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

export function secretKeyStrength(key: string): SecretKeyStrength | undefined {
  const words = keyWords(key);
  const last = words[words.length - 1];
  if (!last) return undefined;
  const before = words[words.length - 2];
  if (last === 'token' && before && NOT_SECRET_BEFORE_TOKEN.has(before)) return undefined;
  if (last === 'pwd' && words.length === 1) return undefined; // PWD is the working directory
  if (STRONG_LAST.has(last) || (before && STRONG_PAIRS.has(`${before} ${last}`)) || GLUED_SUFFIX.test(last))
    return 'strong';
  const tail = words.join(' ');
  if (STRONG_PHRASES.some((phrase) => tail === phrase || tail.endsWith(` ${phrase}`))) return 'strong';
  if (WEAK_LAST.has(last)) return 'weak';
  return undefined;
}
