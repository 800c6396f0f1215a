# bash completion for hgridopt. Commands, options and option values are read
# from hgridopt's own --help texts (and `hgridopt help models`), so they
# follow the installed binary.

_hgridopt_values()
{
    # $1 binary, $2 command, $3 option: the words listed for the option in
    # the command's --help ("--format F   table (default), json or lammps").
    local bin=$1 cmd=$2 opt=$3
    if [[ $opt == --model ]]; then
        "$bin" help models 2>/dev/null | awk '/^  [a-z]/{print $1}'
        return
    fi
    # The option's description: its line and the continuation lines. Values
    # are either listed as "name: ..." / "name (default): ..." at the start
    # of lines, or as "a (default), b, c or d" on the option's line.
    "$bin" "$cmd" --help 2>/dev/null | awk -v o="$opt" '
        on && (/^ *--/ || /^$/ || /^[^ ]/) { exit }
        on { print; next }
        $1 == o { on = 1; sub(/^ *[^ ]+ +[^ ]+ +/, ""); print }' |
        awk '{ lines[NR] = $0 }
             $0 ~ /^ *[a-z][a-z0-9-]*( \(default\))?:/ {
                 w = $1; sub(/:$/, "", w); named[++n] = w }
             END {
                 if (n) { for (i = 1; i <= n; i++) print named[i]; exit }
                 t = lines[1]; gsub(/\([^)]*\)/, "", t); gsub(/[,|]/, " ", t)
                 gsub(/ or /, " ", t); m = split(t, a, " ")
                 for (i = 1; i <= m; i++) if (a[i] ~ /^[a-z0-9][a-z0-9-]*$/) print a[i]
             }'
}

_hgridopt()
{
    local cur prev bin cmd
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    bin=${COMP_WORDS[0]}
    if ((COMP_CWORD == 1)); then
        local cmds
        cmds=$("$bin" --help 2>/dev/null |
            awk '/^Commands:/{on=1; next} on && /^  [a-z]/{print $1} on && /^$/{on=0}')
        COMPREPLY=($(compgen -W "$cmds help --help --version" -- "$cur"))
        return
    fi
    cmd=${COMP_WORDS[1]}
    if [[ $cmd == help ]]; then
        COMPREPLY=($(compgen -W "$("$bin" --help 2>/dev/null |
            sed -n 's/^ *hgridopt help \([a-z]*\).*/\1/p')" -- "$cur"))
        return
    fi
    case $prev in
    --system | --packing | --output | --input | --sizes-file | --lmp | --plot)
        COMPREPLY=($(compgen -f -- "$cur"))
        return
        ;;
    --keep)
        COMPREPLY=($(compgen -d -- "$cur"))
        return
        ;;
    --format | --model | --generator | --method | --recipe | --algorithm | \
        --engine | --structure | --methods | --dim)
        COMPREPLY=($(compgen -W "$(_hgridopt_values "$bin" "$cmd" "$prev")" \
            -- "$cur"))
        return
        ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$("$bin" "$cmd" --help 2>/dev/null |
            grep -oE '^ +--[a-zA-Z0-9-]+' | tr -d ' ' | sort -u)" -- "$cur"))
    fi
}
complete -o default -F _hgridopt hgridopt
