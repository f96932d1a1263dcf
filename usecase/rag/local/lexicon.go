package local

import (
	"strings"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// stopWords say nothing about a film: function words of Russian and
// English and the words of a request ("посоветуй", "find me something
// like"). They are dropped unless a text has nothing else.
const stopWords = `и в во не что он на я с со как а то все всё она так его но да ты к у же вы за бы по только ее её мне
было вот от меня еще ещё нет о об из ему когда даже ну ли если уже или ни быть был него до вас нибудь уж вам ведь там
потом себя ничего ей может они тут где есть надо ней для мы тебя их чем была сам чтоб без будто чего раз тоже себе под
будет ж тогда кто этот того потому этого какой какая какое какие ним здесь этом один одна почти мой тем чтобы нее
сейчас были куда зачем всех можно при об другой хоть после над больше тот через эти нас про всего них много эту моя
свою этой перед том такой такое им более всегда это свой своего своей свои своих своим хочу хочется хотим посоветуй
посоветуйте порекомендуй подскажи покажи найди найти есть ли что-нибудь нибудь вроде похожее похожий похожие похож
посмотреть смотреть глянуть где чтото что-то какой-нибудь который которая которые которого которой
a an the and or of to in on at for with about from by is are was were be been being it its his her their they he she
we you i me my our this that these those who whom which what when where why how as into than then but not no so some
something anything any like find show give recommend suggest want watch watching please all more most very can could
would should will just also only over out up there here has have had do does did him them us your get let lets`

// genericWords name the kind of thing every record is: they count a
// fifth of a word.
const genericWords = `фильм фильмы фильма фильмов кино кинофильм сериал сериалы сериала сериалов история истории
film films movie movies series show story`

// themes are bilingual concepts people ask for that are not categories of
// the fixed list (those come from domain.Categories): each line is a
// concept and the words, in both languages, that name it. A word is
// matched by its stem, so one form of each is enough.
const themes = `comedy: смешной смешное смешные весёлый весёлое весело забавный уморительный funny hilarious laugh
war: война войне войну солдат солдаты фронт армия battle soldier soldiers army wartime
space: космос космический космонавт астронавт планета галактика звездолёт орбита space astronaut planet galaxy spaceship orbit
romance: любовь влюблённые влюбляется роман свидание love lovers falls romantic wedding свадьба
family: семья семейный дети детский детей ребёнок малыши сказка kids children child kid fairy tale
crime: мафия гангстер банда ограбление грабитель преступник mafia gangster gang heist robbery robber criminal
murder: убийство убийца маньяк расследование сыщик murder killer detective investigation
horror: страшный страшное жуткий призрак привидение монстр scary creepy ghost haunted monster
calm: спокойный спокойнее спокойное уютный тихий добрый неспешный неторопливый calm calmer cozy quiet gentle slow kind
dark: мрачный тёмный жестокий гнетущий dark grim brutal bleak
sport: спорт футбол хоккей бокс боксёр чемпионат sport football soccer hockey boxing boxer championship
school: школа школьник школьники учитель выпускной school student students teacher graduation
sea: море океан корабль остров пират sea ocean ship island pirate
time: время времени прошлое будущее машина time past future travel
robot: робот андроид искусственный интеллект robot android artificial intelligence ai
zombie: зомби апокалипсис эпидемия вирус zombie apocalypse epidemic virus outbreak
city: город мегаполис city metropolis
road: путешествие дорога поездка road trip journey voyage
music: песня певец певица группа рок song singer band rock
food: еда повар кулинария ресторан кухня food chef cooking restaurant kitchen
dog: собака пёс щенок щенки dog puppy
animals: кошка животные волк медведь cat animals wolf bear wildlife
alone: одинокий одиночество одиночку alone lonely solitary
medicine: врач доктор больница медсестра хирург терапевт интерн doctor hospital nurse surgeon medical intern
village: деревня село деревенский сельский village villagers hamlet rural
soviet: ссср советский soviet ussr
submarine: подводный субмарина submarine
newyear: новогодний рождество рождественский christmas
nature: природа природный nature`

// buildConcepts maps the stem of every word of the themes and of every
// one-word alias and name of the fixed categories to its concept, so that
// "комедию", "comedies" and "funny" all add the concept "comedy".
func buildConcepts() map[string]string {
	m := map[string]string{}
	add := func(concept, word string) {
		for _, w := range strings.Fields(textmatch.Normalize(word)) {
			if _, taken := m[stem(w)]; !taken {
				m[stem(w)] = concept
			}
		}
	}
	for _, c := range domain.Categories() {
		for _, a := range append([]string{c.NameRu, c.NameEn}, c.Aliases...) {
			if !strings.ContainsAny(a, " _-") {
				add(c.Slug, a)
			}
		}
	}
	for _, line := range strings.Split(themes, "\n") {
		concept, words, _ := strings.Cut(line, ":")
		add(concept, words)
	}
	return m
}

// wordSet is the set of the normalised words of list.
func wordSet(list string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(textmatch.Normalize(list)) {
		m[w] = true
	}
	return m
}
