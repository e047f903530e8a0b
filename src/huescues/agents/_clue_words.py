"""A built-in vocabulary of everyday, evocative clue words (R9, R11, R18-R22).

Every word passes the standard clue rules as a first clue, and any two distinct ones pass together
as a second clue. The random agent draws from it; an agent playing a stricter variant (a longer
banned list, R19) should still check its clue with :func:`huescues.validate_clue`.
"""

from __future__ import annotations

__all__ = ["RANDOM_CLUE_WORDS"]

_WORDS = """
    ocean sky sea lagoon glacier iceberg storm thunder cloud fog mist rain snow frost dawn dusk
    sunset sunrise twilight midnight rainbow lightning tide wave surf reef harbour lake river pond
    marsh swamp

    desert dune sand clay mud dirt soil rust copper bronze brass gold silver slate granite marble
    chalk charcoal ash soot coal pebble canyon volcano lava ember flame fire smoke terracotta brick
    concrete pearl ivory jade emerald ruby sapphire amber topaz amethyst turquoise opal garnet onyx
    crystal

    forest jungle meadow grass moss fern leaf ivy pine cedar oak bamboo cactus seaweed clover lawn
    hedge rose tulip daisy lavender violet orchid sunflower dandelion poppy lily petal blossom
    heather straw hay wheat corn autumn spring winter summer

    lemon lime cherry strawberry raspberry plum grape peach apricot mango banana pineapple melon
    watermelon apple pear coconut olive avocado tomato carrot pumpkin beetroot eggplant pea spinach
    radish mustard saffron turmeric cinnamon ginger paprika chilli pepper mint basil sage vanilla
    honey caramel chocolate cocoa coffee espresso latte tea butter cream egg yolk candy bubblegum
    jam wine champagne whisky milk salmon shrimp lobster toffee marzipan butterscotch sherbet

    canary parrot peacock raven crow dove swan fox tiger lion frog lizard dolphin whale shark
    jellyfish coral bee ladybird butterfly penguin flamingo

    blood bruise blush cheek lips skin freckle denim jeans velvet silk linen wool leather suede
    canvas paper parchment ink pencil crayon paint neon laser plasma ghost bone skull tooth icing
    frosting royal camouflage mould slime poison toxic acid peace shadow night noon sun moon star
    planet earth sunshine bubble soap

    cloudy stormy rusty dusty muddy sandy smoky fiery icy frozen pastel murky sunny tropical arctic
    sepia khaki teal cyan magenta maroon crimson scarlet indigo beige lilac mauve ochre umber
    sienna cobalt azure cerulean vermilion burgundy chartreuse fuchsia
"""

#: Single words that call up a colour without naming a basic colour term (R19), a place on the
#: board or a number (R20), or a comparison (R21). Sorted, no duplicates.
RANDOM_CLUE_WORDS: tuple[str, ...] = tuple(sorted(set(_WORDS.split())))
