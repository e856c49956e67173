/**
 * `isvc-doctor completion bash|zsh`: a shell completion script. The scripts are thin: at each TAB
 * they run `isvc-doctor __complete WORD…` (src/cli/complete-words.ts) and offer what it prints, so
 * subcommands, flags, their values, namespaces, contexts and InferenceService names complete as
 * the CLI itself sees them.
 */
import { usageOf } from './cli-commands.js';
import type { CliIo } from './cli-io.js';
import { UsageError } from './usage-error.js';

const BASH = `# bash completion for isvc-doctor
#   source <(isvc-doctor completion bash)        # this shell
#   isvc-doctor completion bash > /etc/bash_completion.d/isvc-doctor
_isvc_doctor_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" out directive
  out=$("\${COMP_WORDS[0]}" __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return 0
  directive="\${out##*:}"
  out="\${out%:*}"
  COMPREPLY=()
  if (( directive & 16 )); then
    compopt -o filenames 2>/dev/null
    local IFS=$'\\n'
    COMPREPLY=($(compgen -d -- "$cur"))
  elif [[ -n "$out" ]]; then
    local IFS=$'\\n'
    COMPREPLY=($(compgen -W "$(printf '%s\\n' "$out" | cut -f1)" -- "$cur"))
  elif (( (directive & 4) == 0 )); then
    compopt -o filenames 2>/dev/null
    local IFS=$'\\n'
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -F _isvc_doctor_complete isvc-doctor
`;

const ZSH = `#compdef isvc-doctor
# zsh completion for isvc-doctor
#   source <(isvc-doctor completion zsh)         # this shell (after compinit)
#   isvc-doctor completion zsh > "\${fpath[1]}/_isvc-doctor"
_isvc_doctor() {
  local out directive line value
  local -a lines candidates
  out=$("\${words[1]}" __complete "\${(@)words[2,CURRENT]}" 2>/dev/null) || return 1
  lines=("\${(@f)out}")
  directive=\${lines[-1]#:}
  lines=("\${(@)lines[1,-2]}")
  for line in "\${lines[@]}"; do
    [[ -n "$line" ]] || continue
    value=\${line%%$'\\t'*}
    if [[ "$line" == *$'\\t'* ]]; then candidates+=("\${value//:/\\\\:}:\${line#*$'\\t'}"); else candidates+=("\${value//:/\\\\:}"); fi
  done
  if (( directive & 16 )); then
    _path_files -/
  elif (( \${#candidates} )); then
    _describe -t values 'isvc-doctor' candidates
  elif (( (directive & 4) == 0 )); then
    _files
  fi
}
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  _isvc_doctor "$@"
else
  compdef _isvc_doctor isvc-doctor
fi
`;

export const COMPLETION_SCRIPTS: Record<string, string> = { bash: BASH, zsh: ZSH };

export async function runCompletionCommand(
  argv: string[],
  io: Pick<CliIo, 'stdout'> = { stdout: process.stdout },
): Promise<number> {
  const [shell, ...extra] = argv;
  const script =
    shell !== undefined && Object.hasOwn(COMPLETION_SCRIPTS, shell) ? COMPLETION_SCRIPTS[shell] : undefined;
  if (!script || extra.length > 0)
    throw new UsageError(
      `${shell === undefined ? 'missing the shell' : extra.length > 0 ? `unexpected "${extra[0]}"` : `no completion for shell "${shell}"`}: bash or zsh\n${usageOf('completion')}`,
    );
  io.stdout.write(script);
  return 0;
}
