"""A built-in vocabulary of everyday, evocative clue words (R9, R11, R18-R22).

Every word passes the standard clue rules as a first clue, and any two distinct ones pass together
as a second clue. The random agent draws from it; an agent playing a stricter variant (a longer
banned list, R19) should still check its clue with :func:`huescues.validate_clue`.
"""

from __future__ import annotations

__all__ = ["RANDOM_CLUE_WORDS", "RANDOM_CLUE_WORDS_ES", "random_clue_words"]

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

_SPANISH = """
    océano cielo mar laguna glaciar iceberg tormenta trueno nube niebla bruma lluvia nieve
    escarcha amanecer anochecer atardecer crepúsculo medianoche arcoíris relámpago marea ola
    arrecife puerto lago río estanque pantano

    desierto duna arena arcilla barro tierra óxido cobre bronce latón oro plata pizarra granito
    mármol tiza carbón ceniza hollín guijarro cañón volcán lava brasa llama fuego humo ladrillo
    hormigón perla marfil jade esmeralda rubí zafiro ámbar topacio amatista turquesa ópalo
    granate ónix cristal

    bosque selva prado hierba musgo helecho hoja hiedra pino cedro roble bambú cactus alga
    trébol césped seto tulipán margarita lavanda orquídea girasol diente amapola lirio pétalo
    flor brezo paja heno trigo maíz otoño primavera invierno verano

    limón lima cereza fresa frambuesa ciruela uva melocotón albaricoque mango plátano piña melón
    sandía manzana pera coco aceituna aguacate tomate zanahoria calabaza remolacha berenjena
    guisante espinaca rábano mostaza azafrán cúrcuma canela jengibre pimentón pimienta menta
    albahaca salvia vainilla miel caramelo chocolate cacao espresso leche mantequilla nata
    huevo yema chicle mermelada vino champán whisky salmón gamba langosta turrón

    canario loro pavo cuervo paloma cisne zorro tigre león rana lagarto delfín ballena tiburón
    medusa coral abeja mariquita mariposa pingüino flamenco

    sangre moratón rubor mejilla labios piel peca vaquero terciopelo seda lino lana cuero ante
    lienzo papel pergamino tinta lápiz crayón pintura neón láser plasma fantasma hueso calavera
    diente glaseado camuflaje moho veneno ácido paz sombra noche mediodía sol luna estrella
    planeta burbuja jabón

    nublado oxidado polvoriento fangoso arenoso humeante helado congelado tropical ártico sepia
    caqui cian magenta granate carmesí escarlata índigo beis lila malva ocre siena cobalto
    celeste cerúleo bermellón burdeos fucsia
"""

#: The same for Spanish clues (R19-R21 in Spanish, ``Rules(language="es")``): the English
#: list's words in Spanish where Spanish has one, less those the Spanish rules refuse (``rosa``,
#: ``violeta``, ``café``, ``naranja``). Sorted, no duplicates.
RANDOM_CLUE_WORDS_ES: tuple[str, ...] = tuple(sorted(set(_SPANISH.split())))


def random_clue_words(language: str = "en") -> tuple[str, ...]:
    """The random agent's words for clues in ``language``: :data:`RANDOM_CLUE_WORDS` in
    English (and in any language without a list of its own), :data:`RANDOM_CLUE_WORDS_ES` in
    Spanish."""
    return RANDOM_CLUE_WORDS_ES if language == "es" else RANDOM_CLUE_WORDS
