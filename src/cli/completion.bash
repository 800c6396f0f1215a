# bash completion for hgridopt. Commands, options and option values come
# from the installed binary itself, so they follow it: commands and options
# from the --help texts, the values of an option from the list the command
# prints when it refuses a value ("--model: unknown value '@' (one of: auto,
# hgrid-top-down, ...)"), distribution families from `hgridopt help psd`.

_hgridopt_values()
{
    # $1 binary, $2 command, $3 option: the values the command accepts.
    local bin=$1 cmd=$2 opt=$3
    case $opt in
    --dim) echo 2 3; return ;;
    --psd)
        "$bin" help psd 2>/dev/null | awk '/^  [a-z][a-z0-9-]* /{print $1 ":"}'
        return
        ;;
    --methods)
        # "comma-separated, from: brute,sap,..." in the command's --help
        "$bin" "$cmd" --help 2>/dev/null |
            sed -n 's/^ *--methods .*from: *\([a-z0-9,-]*\).*/\1/p' | tr ',' ' '
        return
        ;;
    esac
    # The command refuses the value '@' (never valid) with one line ending
    # in the list of valid ones: "(one of: a, b, c)" or "(a, b or c)". The
    # system options make commands that need one reach the check; nothing
    # runs, the value is refused while the options are read. --structure
    # and --engine mean the same on every command: asked of recommend,
    # which checks them before needing anything else.
    case $opt in --structure | --engine) cmd=recommend ;; esac
    "$bin" "$cmd" --psd mono:r=1 --dim 3 --nu 0.5 "$opt" @ 2>&1 >/dev/null |
        sed -n "s/.*unknown [a-z]* '@' (\(.*\))\$/\1/p" | head -1 |
        sed 's/^one of: //; s/, / /g; s/ or / /g'
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
    --psd)
        COMPREPLY=($(compgen -W "$(_hgridopt_values "$bin" "$cmd" "$prev")" \
            -- "$cur"))
        # a family name goes on with its parameters
        [[ ${#COMPREPLY[@]} == 1 ]] && type compopt >/dev/null 2>&1 &&
            compopt -o nospace 2>/dev/null
        return
        ;;
    --format | --model | --generator | --method | --algorithm | \
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
