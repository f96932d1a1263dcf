package textmatch

import (
	"reflect"
	"testing"
)

func TestSentences(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"blank", "  \n\t ", nil},
		{"no mark", "Просто текст без точки", []string{"Просто текст без точки"}},
		{"two russian", "Привет. Как дела?", []string{"Привет.", "Как дела?"}},
		{"exclamation and question", "Стой! Кто идёт?! Я.", []string{"Стой!", "Кто идёт?!", "Я."}},
		{"ellipsis rune before capital", "Ну… Ладно.", []string{"Ну…", "Ладно."}},
		{"ellipsis rune before small letter", "Ну… может быть.", []string{"Ну… может быть."}},
		{"three dots", "Wait... What happened?", []string{"Wait...", "What happened?"}},
		{"three dots mid sentence", "It was... fine.", []string{"It was... fine."}},
		{"closing guillemet", "Он сказал: «Уходи!» Она ушла.", []string{"Он сказал: «Уходи!»", "Она ушла."}},
		{"closing bracket", "Фильм хорош (очень.) Смотрите.", []string{"Фильм хорош (очень.)", "Смотрите."}},
		{"english quote", `He said "Run." Then he ran.`, []string{`He said "Run."`, "Then he ran."}},
		{"dialogue dash continues", "«Стой!» — крикнул он. Все замерли.", []string{"«Стой!» — крикнул он.", "Все замерли."}},
		{"т. е.", "Это классика, т. е. все её видели. Вот.", []string{"Это классика, т. е. все её видели.", "Вот."}},
		{"т.к.", "Смотрим дома, т.к. Кино закрыто.", []string{"Смотрим дома, т.к. Кино закрыто."}},
		{"year before small letter", "В 2024 г. вышел сиквел.", []string{"В 2024 г. вышел сиквел."}},
		{"year at the end", "Фильм вышел в 2024 г. Он хорош.", []string{"Фильм вышел в 2024 г.", "Он хорош."}},
		{"years гг.", "Снимали в 1990–1995 гг. Потом забыли.", []string{"Снимали в 1990–1995 гг.", "Потом забыли."}},
		{"город before a name", "Снимали в г. Москва. Потом в г. Казань.", []string{"Снимали в г. Москва.", "Потом в г. Казань."}},
		{"город after a comma", "Да, г. Москва стоит.", []string{"Да, г. Москва стоит."}},
		{"и др.", "Играют Иванов, Петров и др. В главной роли Иванов.", []string{"Играют Иванов, Петров и др.", "В главной роли Иванов."}},
		{"им.", "Театр им. Пушкина открыт.", []string{"Театр им. Пушкина открыт."}},
		{"russian initials", "Автор — А. С. Пушкин. Читайте.", []string{"Автор — А. С. Пушкин.", "Читайте."}},
		{"joined initials", "Режиссёр А.С. Кончаловский снял его.", []string{"Режиссёр А.С. Кончаловский снял его."}},
		{"english initials", "J. R. R. Tolkien wrote it. Read it.", []string{"J. R. R. Tolkien wrote it.", "Read it."}},
		{"decimal number", "Рейтинг 3.14 из 10. Неплохо.", []string{"Рейтинг 3.14 из 10.", "Неплохо."}},
		{"hours", "Длится 1.5 ч. и не скучно.", []string{"Длится 1.5 ч. и не скучно."}},
		{"hours at the end", "Длится 1.5 ч. Смотрите.", []string{"Длится 1.5 ч.", "Смотрите."}},
		{"Mr. and Mrs.", "Mr. Smith met Mrs. Jones. They talked.", []string{"Mr. Smith met Mrs. Jones.", "They talked."}},
		{"Dr.", "Dr. Who is back! Watch it.", []string{"Dr. Who is back!", "Watch it."}},
		{"e.g. and i.e.", "Some films, e.g. Alien, are old, i.e. Classic. Yes.", []string{"Some films, e.g. Alien, are old, i.e. Classic.", "Yes."}},
		{"vs.", "Alien vs. Predator is loud. Skip it.", []string{"Alien vs. Predator is loud.", "Skip it."}},
		{"number ends a sentence", "It came out in 1999. It aged well.", []string{"It came out in 1999.", "It aged well."}},
		{"newline breaks", "Первая строка\nВторая строка", []string{"Первая строка", "Вторая строка"}},
		{"blank lines dropped", "One.\n\n\nTwo.", []string{"One.", "Two."}},
		{"mixed languages", "Смотрите The Matrix. It is great!", []string{"Смотрите The Matrix.", "It is great!"}},
		{"url-like dots", "Сайт example.com работает. Да.", []string{"Сайт example.com работает.", "Да."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Sentences(tt.text); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Sentences(%q)\n got %q\nwant %q", tt.text, got, tt.want)
			}
		})
	}
}
